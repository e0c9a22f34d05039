package dev.platform.scheduler.core.forecast;

import dev.platform.scheduler.core.model.PodSet;
import dev.platform.scheduler.core.model.Workload;

import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What makes two workloads alike enough to expect the same runtime: namespace, LocalQueue, priority class and
 * resource shape ({@code name:count x {resource=milli,...}} per pod set, in pod set name order).
 */
public record RuntimeKey(String namespace, String localQueue, String priorityClassName, String shape) {

    public static RuntimeKey of(Workload w) {
        String shape = w.podSets().stream().sorted(Comparator.comparing(PodSet::name))
                .map(ps -> ps.name() + ":" + ps.count() + "x" + new TreeMap<>(ps.requests()).entrySet().stream()
                        .map(Map.Entry::toString).collect(Collectors.joining(",", "{", "}")))
                .collect(Collectors.joining(";"));
        return new RuntimeKey(w.namespace(), w.localQueue(), w.priorityClassName(), shape);
    }
}
