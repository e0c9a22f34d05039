package dev.platform.scheduler.core.model;

import java.util.List;
import java.util.Map;

/**
 * A group of identical pods. {@code requests} are per pod, in milli-units. {@code minCount} below {@code count}
 * allows partial admission. {@code requiredNodeAffinity} holds the ORed terms of
 * requiredDuringSchedulingIgnoredDuringExecution, each an ANDed list of requirements.
 */
public record PodSet(String name, int count, int minCount, Map<String, Long> requests,
                     Map<String, String> nodeSelector, List<List<LabelRequirement>> requiredNodeAffinity,
                     List<Toleration> tolerations) {

    public PodSet {
        requests = Map.copyOf(requests);
        nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector);
        requiredNodeAffinity = requiredNodeAffinity == null ? List.of() : requiredNodeAffinity.stream().map(List::copyOf).toList();
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
        if (minCount <= 0 || minCount > count) {
            minCount = count;
        }
    }

    public boolean allowsPartialAdmission() {
        return minCount < count;
    }
}
