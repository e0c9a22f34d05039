package dev.platform.scheduler.hotswap;

import dev.platform.api.identity.Caller;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * One disruption under a running workload and its recovery, with the MTTR phases:
 * detected -> decided -> evictions done -> replacement running.
 *
 * @param outcome    InProgress, Recovered (running again), Requeued (no replacement: waits in its
 *                   queue), Failed (restart limit reached), Superseded (its victims' evictions stayed refused:
 *                   a later hotswap of the same workload chose other victims)
 * @param waitingFor while InProgress, the victims' evictions not finished yet and what the agent
 *                   last said of each (say, a PodDisruptionBudget refusing them); null otherwise
 */
public record HotswapEvent(long id, String cluster, String nodePool, List<String> nodes, String reason,
                           Party disrupted, List<Party> victims, List<String> replacementPools, String outcome,
                           Instant detectedAt, Instant decidedAt, Instant evictionsDoneAt, Instant runningAt,
                           String waitingFor) {

    /** Said in place of what the agent reported when a victim is another team's: it names that workload. */
    static final String OTHER_TEAM_WAITING = "evictions of another team's workloads are not finished yet";

    /** A workload taking part: the disrupted one or a victim. */
    public record Party(String namespace, String name, UUID uid, int priority) {

        /** Another team's workload: its uid and priority stay (they name nothing), the rest goes. */
        Party unnamed() {
            return new Party(null, null, uid, priority);
        }
    }

    /**
     * The event as {@code caller} may see it: a victim in a namespace they do not read is unnamed, and
     * what its eviction waits for is not quoted. The disrupted workload is always readable: a caller
     * sees only the events of workloads of their namespaces.
     */
    public HotswapEvent seenBy(Caller caller) {
        if (victims.stream().allMatch(v -> caller.mayRead(v.namespace()))) {
            return this;
        }
        List<Party> shown = victims.stream().map(v -> caller.mayRead(v.namespace()) ? v : v.unnamed()).toList();
        return new HotswapEvent(id, cluster, nodePool, nodes, reason, disrupted, shown, replacementPools, outcome,
                detectedAt, decidedAt, evictionsDoneAt, runningAt, waitingFor == null ? null : OTHER_TEAM_WAITING);
    }

    /** Detected to running again; null until the replacement runs. */
    @JsonProperty("mttrSeconds")
    public Double mttrSeconds() {
        return runningAt == null ? null : Duration.between(detectedAt, runningAt).toMillis() / 1000.0;
    }
}
