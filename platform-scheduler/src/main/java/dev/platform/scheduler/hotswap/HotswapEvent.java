package dev.platform.scheduler.hotswap;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One disruption under a running workload and its recovery, with the MTTR phases:
 * detected -> decided -> evictions done -> replacement running.
 *
 * @param outcome    InProgress, Recovered (running again), Requeued (no replacement: waits in its
 *                   queue), Failed (restart limit reached)
 * @param waitingFor while InProgress, the victims' evictions not finished yet and what the agent
 *                   last said of each (say, a PodDisruptionBudget refusing them); null otherwise
 */
public record HotswapEvent(long id, String cluster, String nodePool, List<String> nodes, String reason,
                           Party disrupted, List<Party> victims, List<String> replacementPools, String outcome,
                           Instant detectedAt, Instant decidedAt, Instant evictionsDoneAt, Instant runningAt,
                           String waitingFor) {

    /** A workload taking part: the disrupted one or a victim. */
    public record Party(String namespace, String name, String uid, int priority) {
    }

    /** Detected to running again; null until the replacement runs. */
    @JsonProperty("mttrSeconds")
    public Double mttrSeconds() {
        return runningAt == null ? null : Duration.between(detectedAt, runningAt).toMillis() / 1000.0;
    }
}
