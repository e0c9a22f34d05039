package dev.platform.web.console;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.ClusterRole;
import dev.platform.api.identity.TeamRole;
import dev.platform.web.nodepool.NodePoolQueries.ClusterPools;
import dev.platform.web.nodepool.NodePoolQueries.NodeIssue;
import dev.platform.web.nodepool.NodePoolQueries.PlacedWorkload;
import dev.platform.web.nodepool.NodePoolQueries.Pool;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/** View records as the scheduler's adapters would return them, for controller tests. */
public final class ConsoleFixtures {

    public static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    /** The console tests' present: an hour after {@link #T0}. */
    public static final Instant NOW = T0.plusSeconds(3600);

    /** Every console test's caller unless it says otherwise: sees and may do everything. */
    public static final Caller ADMIN = new Caller("admin", ClusterRole.Admin, List.of());
    /** An Engineer of team vision (namespace vision-train): no audits, no infrastructure pages. */
    public static final Caller ENGINEER = new Caller("bob", null,
            List.of(new Caller.Membership("vision", TeamRole.Engineer, Set.of("vision-train"))));
    /** The TeamLead of team vision: also the team page and the team's preemptions. */
    public static final Caller LEAD = new Caller("alice", null,
            List.of(new Caller.Membership("vision", TeamRole.TeamLead, Set.of("vision-train"))));

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

    /**
     * The seed's hotswap: pool-2 failed under high-jax-trillium at T0; decided 0.5 s later (victim
     * low-jax-trillium), its pods gone at 2.5 s, high running again on pool-1 and pool-3 at 4 s.
     */
    public static HotswapView recoveredHotswap(long id, Instant detectedAt) {
        return new HotswapView(id, "sim", "pool-2", List.of("pool-2-node-0"), "NodeFailure",
                new HotswapView.Party("default", "high-jax-trillium"),
                List.of(new HotswapView.Party("default", "low-jax-trillium")), List.of("pool-1", "pool-3"), "Recovered",
                detectedAt, detectedAt.plusMillis(500), detectedAt.plusMillis(2500), detectedAt.plusMillis(4000));
    }

    /** Detected and decided, the victims' pods not gone yet. */
    public static HotswapView inProgressHotswap(long id, Instant detectedAt) {
        return new HotswapView(id, "sim", "pool-4", List.of(), "NodeFailure",
                new HotswapView.Party("research", "big-slice"), List.of(), List.of("pool-5"), "InProgress",
                detectedAt, detectedAt.plusSeconds(1), null, null);
    }

    /** Cluster sim: a healthy pool running high, an unhealthy one (node-0 NOT_READY), a degraded free one. */
    public static ClusterPools simCluster() {
        return new ClusterPools("sim", true, false, T0, List.of(
                new Pool("pool-1", "tpu-v6e-slice", "4x4", 4, 16, "Healthy", List.of(), null, List.of(),
                        List.of(new PlacedWorkload("default", "high-jax-trillium", "RUNNING", false))),
                new Pool("pool-2", "tpu-v6e-slice", "4x4", 4, 16, "Unhealthy", List.of("NOT_READY"), T0,
                        List.of(new NodeIssue("pool-2-node-0", "Unhealthy", List.of("NOT_READY"))), List.of()),
                new Pool("pool-9", "tpu-v5p-slice", "2x2x1", 1, 4, "Degraded", List.of("MAINTENANCE_SCHEDULED"), null,
                        List.of(new NodeIssue("pool-9-node-0", "Degraded", List.of("MAINTENANCE_SCHEDULED"))),
                        List.of())));
    }

    /** Cluster prio: one JobSet without a queue (priority-only mode) on two 16-chip pools, a queued one on a third. */
    public static ClusterPools priorityOnlyCluster() {
        PlacedWorkload quotaFree = new PlacedWorkload("default", "no-queue", "RUNNING", true);
        return new ClusterPools("prio", true, false, T0, List.of(
                new Pool("prio-1", "tpu-v6e-slice", "4x4", 4, 16, "Healthy", List.of(), null, List.of(), List.of(quotaFree)),
                new Pool("prio-2", "tpu-v6e-slice", "4x4", 4, 16, "Healthy", List.of(), null, List.of(), List.of(quotaFree)),
                new Pool("prio-3", "tpu-v6e-slice", "4x4", 4, 16, "Healthy", List.of(), null, List.of(),
                        List.of(new PlacedWorkload("default", "queued", "RUNNING", false)))));
    }

    /** A cluster whose agent stopped reporting: its pool is shown Unknown. */
    public static ClusterPools staleCluster() {
        return new ClusterPools("edge", true, true, T0.minusSeconds(300), List.of(
                new Pool("edge-1", "tpu-v6e-slice", "2x2", 1, 4, "Unknown", List.of(), null, List.of(), List.of())));
    }
}
