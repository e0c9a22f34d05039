package dev.platform.scheduler.core.forecast;

import dev.platform.scheduler.core.model.Workload;

import java.util.List;

/**
 * What the history says of one LocalQueue and priority class's future submissions: their rate and the workloads
 * recently submitted, one of which each sampled arrival copies (shape, priority, maximum execution time).
 */
public record ArrivalProcess(ArrivalKey key, ArrivalRate rate, List<Workload> recent) {

    public ArrivalProcess {
        if (recent.isEmpty()) {
            throw new IllegalArgumentException("an arrival process needs a workload to copy");
        }
        recent = List.copyOf(recent);
    }
}
