package dev.platform.web.console;

import java.time.Instant;
import java.util.List;

/** View records as the scheduler's adapters would return them, for controller tests. */
public final class ConsoleFixtures {

    public static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private ConsoleFixtures() {
    }

    /** The seed's tpu-training-cq with the high JobSet admitted: 32 of 32 chips used. */
    public static QueueUsageView trainingQueue() {
        return new QueueUsageView("tpu-training-cq", null, "BestEffortFIFO", true, "Ready",
                List.of(new ResourceUsageView("tpu-v6e-slice", "google.com/tpu", "32", null, null, "32", "0", "0")),
                1, 1);
    }

    public static QueueUsageView borrowingQueue() {
        return new QueueUsageView("team-b", "research", "StrictFIFO", true, "Ready",
                List.of(new ResourceUsageView("tpu-v5e", "google.com/tpu", "16", "8", "4", "20", "4", "0")), 0, 2);
    }

    public static PreemptionView preemption(long id, String victim) {
        return new PreemptionView(id, T0.plusSeconds(id), "InClusterQueue",
                "Preempted to accommodate a workload (UID: u-high) due to prioritization in the ClusterQueue",
                new PreemptionView.Party("default", "high-jax-trillium", "u-high", "tpu-training-cq", 2000000),
                new PreemptionView.Party("default", victim, "u-" + victim, "tpu-training-cq", 1000000));
    }
}
