package dev.platform.scheduler.scheduling;

import dev.platform.api.reason.EvictionReason;
import dev.platform.api.reason.PreemptionReason;
import dev.platform.scheduler.cluster.AgentsProperties;
import dev.platform.scheduler.cluster.ClusterDisruptions;
import dev.platform.scheduler.cluster.ClusterQueries;
import dev.platform.scheduler.config.QueueUsage;
import dev.platform.scheduler.config.QueueUsage.QuotaAmount;
import dev.platform.scheduler.config.QueueUsage.QuotaColumn;
import dev.platform.scheduler.cluster.ClusterWorkloads;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.QueueManager.PendingCounts;
import dev.platform.scheduler.hotswap.HotswapEvent;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.springframework.context.annotation.Lazy;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * Kueue's metrics with Kueue's names, label sets and histogram buckets (its {@code pkg/metrics},
 * v0.19.2; the test resource {@code kueue-metrics-v0.19.2.tsv} holds the list), so dashboards and
 * alerts built for Kueue work unchanged, and the platform's own: hotswap, agents, node pools, the
 * database.
 * <p>
 * Counters and histograms count what the leader committed. Gauges are read from PostgreSQL every
 * {@code platform.metrics.refresh} and are the same on every replica, except the pending counts,
 * which only the leader's queues know (active vs inadmissible). Every Kueue metric carries
 * {@code replica_role} ({@code leader} or {@code follower}), as Kueue's do.
 */
@Component
public class SchedulingMetrics {

    /** Kueue's generateExponentialBuckets(n): 1, then 2.5 doubling; 16 reach 40960 s (11 h). */
    static Duration[] kueueWaitBuckets(int count) {
        List<Duration> buckets = new ArrayList<>(List.of(Duration.ofSeconds(1)));
        IntStream.range(0, count - 1).forEach(i -> buckets.add(Duration.ofMillis((long) (2500 * Math.pow(2, i)))));
        return buckets.toArray(Duration[]::new);
    }

    /** Prometheus' default buckets, which Kueue's admission attempt duration keeps. */
    private static final Duration[] DEFAULT_BUCKETS = {Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
            Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
            Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10)};

    /** Hotswap phases take seconds to minutes. */
    private static final Duration[] RECOVERY_BUCKETS = {Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(5),
            Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(30), Duration.ofSeconds(60),
            Duration.ofSeconds(120), Duration.ofSeconds(300), Duration.ofSeconds(600), Duration.ofSeconds(1800)};

    static final String LEADER = "leader";
    static final String FOLLOWER = "follower";

    private final MeterRegistry registry;
    private final JdbcClient jdbc;
    private final WorkloadStore workloads;
    private final QueueUsage queues;
    private final ClusterQueries clusters;
    private final ClusterDisruptions disruptions;
    private final Clock clock;
    private final Duration staleness;
    private final SchedulingLoop loop;
    private final Map<String, MultiGauge> gauges;
    private volatile Map<String, PendingCounts> pending = Map.of();

    SchedulingMetrics(MeterRegistry registry, JdbcClient jdbc, WorkloadStore workloads, QueueUsage queues,
                      ClusterQueries clusters, ClusterDisruptions disruptions, Clock clock, AgentsProperties agents,
                      @Lazy SchedulingLoop loop) {
        this.registry = registry;
        this.disruptions = disruptions;
        this.jdbc = jdbc;
        this.workloads = workloads;
        this.queues = queues;
        this.clusters = clusters;
        this.clock = clock;
        this.staleness = agents.staleness();
        this.loop = loop;
        this.gauges = Map.ofEntries(
                gauge("kueue.pending.workloads", "Pending workloads per ClusterQueue; status active or inadmissible"),
                gauge("kueue.unadmitted.workloads", "Pending workloads per ClusterQueue and pending reason"),
                gauge("kueue.reserving.active.workloads", "Workloads holding quota per ClusterQueue"),
                gauge("kueue.admitted.active.workloads", "Admitted workloads per ClusterQueue"),
                gauge("kueue.cluster.queue.status", "1 for the ClusterQueue's status: pending, active or terminating"),
                gauge("kueue.cluster.queue.resource.usage", "Quota in use per ClusterQueue, flavor and resource"),
                gauge("kueue.cluster.queue.resource.reservation", "Quota reserved per ClusterQueue, flavor and resource"),
                gauge("kueue.cluster.queue.nominal.quota", "Nominal quota per ClusterQueue, flavor and resource"),
                gauge("kueue.cluster.queue.borrowing.limit", "Borrowing limit per ClusterQueue, flavor and resource"),
                gauge("kueue.cluster.queue.lending.limit", "Lending limit per ClusterQueue, flavor and resource"),
                Map.entry("platform.cluster.report.age", MultiGauge.builder("platform.cluster.report.age").baseUnit("seconds")
                        .description("Seconds since the cluster's agent last reported").register(registry)),
                gauge("platform.node.pools", "Node pools per cluster and health (Unknown while the agent is stale)"),
                gauge("platform.cluster.disrupted", "1 for a cluster whose requeues are held: a FULL report lacked too"
                        + " many of its running JobSets at once"),
                gauge("platform.agent.commands.unfinished", "Agent commands without a final result per cluster and state"),
                gauge("platform.table.rows", "Estimated live rows of the platform's tables (pg_stat_user_tables)"));
        Gauge.builder("platform.scheduler.leader", () -> loop.isLeader() ? 1 : 0)
                .description("1 on the replica that runs the scheduling loop").register(registry);
        Gauge.builder("platform.scheduler.leader.epoch", this::epoch)
                .description("The leader epoch: it grows by one per leadership change").register(registry);
        Gauge.builder("platform.database.size", this::databaseSize).baseUnit("bytes")
                .description("Size of the platform's PostgreSQL database").register(registry);
    }

    private Map.Entry<String, MultiGauge> gauge(String name, String description) {
        return Map.entry(name, MultiGauge.builder(name).description(description).register(registry));
    }

    private String role() {
        return loop.isLeader() ? LEADER : FOLLOWER;
    }

    // ---- counters and histograms of committed decisions (leader only)

    /** One admission cycle that decided something: {@code success} when it admitted a workload. */
    void cycle(boolean admitted, Duration took) {
        String result = admitted ? "success" : "inadmissible";
        Counter.builder("kueue.admission.attempts").description("Admission cycles that decided something, by result")
                .tags("result", result, "replica_role", LEADER).register(registry).increment();
        Timer.builder("kueue.admission.attempt.duration").description("Latency of an admission cycle")
                .tags("result", result, "replica_role", LEADER).serviceLevelObjectives(DEFAULT_BUCKETS)
                .register(registry).record(took);
    }

    /** Counts what a committed cycle did, leaving out the decisions that lost a race. */
    void committed(CycleResult result, CycleDecisions.Outcome outcome) {
        for (Decision.Admit a : result.admitted()) {
            if (!outcome.newVersions().containsKey(a.workload().uid())) {
                continue;
            }
            Tags tags = Tags.of("cluster_queue", a.admission().clusterQueue(),
                    "priority_class", nullToEmpty(a.workload().priorityClassName()), "replica_role", LEADER);
            Duration waited = Duration.between(a.workload().queuedAt(), outcome.at()).abs();
            Counter.builder("kueue.quota.reserved.workloads").description("Workloads that reserved quota per ClusterQueue")
                    .tags(tags).register(registry).increment();
            Timer.builder("kueue.quota.reserved.wait.time").description("Time from queueing to quota reservation")
                    .tags(tags).serviceLevelObjectives(kueueWaitBuckets(14)).register(registry).record(waited);
            if (!a.awaitsChecks()) {
                admitted(tags, waited, Duration.ZERO);
            }
        }
        for (Decision.Preempt p : result.preempted()) {
            if (!outcome.rejectedEvictions().contains(p.workload().uid())) {
                preempted(p.preemptorClusterQueue(), p.reason());
                evicted(p.victimClusterQueue(), EvictionReason.Preempted, p.workload().priorityClassName());
            }
        }
        for (Decision.Evict e : result.evicted()) {
            if (!outcome.rejectedEvictions().contains(e.workload().uid())) {
                evicted(e.clusterQueue(), e.reason(), e.workload().priorityClassName());
            }
        }
    }

    /**
     * A quota reservation whose admission checks are all Ready: admitted, {@code sinceQueued} after it was queued and
     * {@code sinceReserved} after its quota was reserved (Kueue's admission_checks_wait_time_seconds).
     */
    void checksReady(String clusterQueue, String priorityClass, Duration sinceQueued, Duration sinceReserved) {
        admitted(Tags.of("cluster_queue", clusterQueue, "priority_class", nullToEmpty(priorityClass),
                "replica_role", LEADER), sinceQueued, sinceReserved);
    }

    private void admitted(Tags tags, Duration sinceQueued, Duration sinceReserved) {
        Counter.builder("kueue.admitted.workloads").description("Workloads admitted per ClusterQueue")
                .tags(tags).register(registry).increment();
        Timer.builder("kueue.admission.wait.time").description("Time from queueing to admission")
                .tags(tags).serviceLevelObjectives(kueueWaitBuckets(16)).register(registry).record(sinceQueued);
        Timer.builder("kueue.admission.checks.wait.time")
                .description("Time from quota reservation to admission, waiting for admission checks")
                .tags(tags).serviceLevelObjectives(kueueWaitBuckets(14)).register(registry).record(sinceReserved);
    }

    /** A priority-only admission's victims, preempted with reason {@code PriorityPreemption}. */
    void admittedByPriority(PriorityOnlyPlacement.Admitted admitted) {
        admitted.victims().forEach(v -> victim(null, PreemptionReason.PriorityPreemption, v));
    }

    /** A committed hotswap: its victims, its requeue when no replacement was found, its MTTR phases so far. */
    void hotswapped(HotswapDetector.Decided decided) {
        WorkloadRow row = decided.disrupted();
        HotswapDetector.Result result = decided.result();
        decided.victims().stream().filter(v -> result.victimsEvicted().contains(v.uid().toString()))
                .forEach(v -> victim(row.clusterQueue(), PreemptionReason.Hotswap, v));
        if (!result.newVersions().containsKey(row.uid().toString())) {
            return;
        }
        if (result.outcome() == HotswapDetector.Outcome.Requeued) {
            evicted(row.clusterQueue(), EvictionReason.NodeFailures, row.priorityClassName());
        }
        hotswapDecided(result.event());
    }

    /** Kueue's {@code reason} values, plus ours: {@code Hotswap} and {@code PriorityPreemption}. */
    void preempted(String preemptingClusterQueue, PreemptionReason reason) {
        Counter.builder("kueue.preempted.workloads").description("Preempted workloads per preempting ClusterQueue and reason")
                .tags("preempting_cluster_queue", nullToEmpty(preemptingClusterQueue), "reason", reason.name(),
                        "replica_role", LEADER)
                .register(registry).increment();
    }

    /** A victim of a preemption outside the cycle (Hotswap, priority-only mode): preempted and evicted. */
    void victim(String preemptingClusterQueue, PreemptionReason reason, WorkloadRow victim) {
        preempted(preemptingClusterQueue, reason);
        evicted(victim.clusterQueue(), EvictionReason.Preempted, victim.priorityClassName());
    }

    void evicted(String clusterQueue, EvictionReason reason, String priorityClass) {
        evicted(clusterQueue, reason, "", priorityClass);
    }

    /**
     * Kueue's eviction reasons with their underlying cause: PodsReadyTimeout (WaitForStart, WaitForRecovery),
     * Deactivated (RequeuingLimitExceeded, MaximumExecutionTimeExceeded), and ours, StartFailed.
     */
    void evicted(String clusterQueue, EvictionReason reason, String underlyingCause, String priorityClass) {
        Counter.builder("kueue.evicted.workloads").description("Evicted workloads per ClusterQueue and reason")
                .tags("cluster_queue", nullToEmpty(clusterQueue), "reason", reason.name(),
                        "underlying_cause", underlyingCause, "priority_class", nullToEmpty(priorityClass), "replica_role", LEADER)
                .register(registry).increment();
    }

    /**
     * A workload whose JobSet went missing from its cluster: {@code platform.jobsets.missing} by cluster and outcome
     * (Requeued, Failed), and Kueue's evicted count with reason JobSetMissing for a requeued one.
     */
    void jobSetMissing(ClusterWorkloads.MissingJobSet missing, boolean failed) {
        Counter.builder("platform.jobsets.missing")
                .description("Workloads whose JobSet their cluster no longer had, by cluster and outcome")
                .tags("cluster", missing.cluster(), "outcome", failed ? "Failed" : "Requeued")
                .register(registry).increment();
        if (!failed) {
            evicted(missing.clusterQueue(), EvictionReason.JobSetMissing, missing.priorityClassName());
        }
    }

    /** A cluster marked disrupted, its requeues held: {@code platform.cluster.disruptions} by cluster. */
    void clusterDisrupted(String cluster) {
        Counter.builder("platform.cluster.disruptions")
                .description("Times a FULL report lacked too many of a cluster's running JobSets and its requeues were held")
                .tags("cluster", cluster).register(registry).increment();
    }

    /** MTTR phases of a hotswap as they land: decided, evictions done (seconds from detection). */
    private void hotswapDecided(HotswapEvent event) {
        Counter.builder("platform.hotswap.events").description("Hotswap decisions by outcome")
                .tag("outcome", event.outcome()).register(registry).increment();
        phase("decided", event.detectedAt(), event.decidedAt());
        phase("evicted", event.detectedAt(), event.evictionsDoneAt());
    }

    /** The last phase: the disrupted workload runs again. */
    void hotswapRecovered(HotswapEvent event) {
        phase("running", event.detectedAt(), event.runningAt());
    }

    private void phase(String phase, Instant from, Instant to) {
        if (from != null && to != null) {
            Timer.builder("platform.hotswap.recovery").description("Hotswap MTTR phases, seconds from detection")
                    .tag("phase", phase).serviceLevelObjectives(RECOVERY_BUCKETS)
                    .register(registry).record(Duration.between(from, to));
        }
    }

    /** The leader's pending counts after a turn; empty when this replica does not lead. */
    void pendingCounts(Map<String, PendingCounts> counts) {
        pending = Map.copyOf(counts);
    }

    // ---- gauges

    @Scheduled(fixedDelayString = "${platform.metrics.refresh:15s}", initialDelayString = "${platform.metrics.refresh:15s}")
    void refreshGauges() {
        String role = role();
        List<MultiGauge.Row<Number>> pendingRows = new ArrayList<>();
        if (loop.isLeader()) {
            pending.forEach((queue, counts) -> {
                pendingRows.add(row(Tags.of("cluster_queue", queue, "status", "active", "replica_role", role),
                        counts.active()));
                pendingRows.add(row(Tags.of("cluster_queue", queue, "status", "inadmissible",
                        "replica_role", role), counts.inadmissible()));
            });
        }
        gauges.get("kueue.pending.workloads").register(pendingRows, true);
        gauges.get("kueue.unadmitted.workloads").register(workloads.waitingCounts().stream()
                .map(w -> row(Tags.of("cluster_queue", w.clusterQueue(), "reason", w.reason(),
                        "underlying_cause", "", "replica_role", role), w.count()))
                .toList(), true);
        var admittedRows = queues.admittedCounts().entrySet().stream()
                .map(c -> row(Tags.of("cluster_queue", c.getKey(), "replica_role", role), c.getValue()))
                .toList();
        gauges.get("kueue.reserving.active.workloads").register(admittedRows, true);
        gauges.get("kueue.admitted.active.workloads").register(admittedRows, true);
        gauges.get("kueue.cluster.queue.status").register(clusterQueueStatus(role), true);
        var usage = quotaRows(queues.usageAmounts(), role);
        gauges.get("kueue.cluster.queue.resource.usage").register(usage, true);
        gauges.get("kueue.cluster.queue.resource.reservation").register(usage, true);
        gauges.get("kueue.cluster.queue.nominal.quota")
                .register(quotaRows(queues.quotaAmounts(QuotaColumn.NOMINAL_QUOTA), role), true);
        gauges.get("kueue.cluster.queue.borrowing.limit")
                .register(quotaRows(queues.quotaAmounts(QuotaColumn.BORROWING_LIMIT), role), true);
        gauges.get("kueue.cluster.queue.lending.limit")
                .register(quotaRows(queues.quotaAmounts(QuotaColumn.LENDING_LIMIT), role), true);
        refreshPlatformGauges();
    }

    private List<MultiGauge.Row<Number>> clusterQueueStatus(String role) {
        List<MultiGauge.Row<Number>> rows = new ArrayList<>();
        queues.activeClusterQueues().entrySet().forEach(q -> {
                    for (String status : List.of("pending", "active", "terminating")) {
                        boolean current = status.equals(q.getValue() ? "active" : "pending");
                        rows.add(row(Tags.of("cluster_queue", q.getKey(), "status", status,
                                "replica_role", role), current ? 1 : 0));
                    }
                });
        return rows;
    }

    private static List<MultiGauge.Row<Number>> quotaRows(List<QuotaAmount> amounts, String role) {
        return amounts.stream().map(a -> row(Tags.of("cohort", a.cohort(), "cluster_queue", a.clusterQueue(),
                "flavor", a.flavor(), "resource", a.resource(), "replica_role", role), a.amount())).toList();
    }

    private void refreshPlatformGauges() {
        Instant now = clock.instant();
        gauges.get("platform.cluster.report.age").register(clusters.lastReports().entrySet().stream()
                .map(c -> row(Tags.of("cluster", c.getKey()),
                        Duration.between(c.getValue(), now).toMillis() / 1000.0))
                .toList(), true);
        gauges.get("platform.cluster.disrupted").register(disruptions.disrupted().keySet().stream()
                .map(c -> row(Tags.of("cluster", c), 1)).toList(), true);
        gauges.get("platform.node.pools").register(clusters.nodePoolsByHealth(now.minus(staleness)).stream()
                .map(p -> row(Tags.of("cluster", p.cluster(), "health", p.state()), p.count()))
                .toList(), true);
        gauges.get("platform.agent.commands.unfinished").register(clusters.unfinishedCommands().stream()
                .map(c -> row(Tags.of("cluster", c.cluster(), "state", c.state()), c.count()))
                .toList(), true);
        gauges.get("platform.table.rows").register(jdbc.sql(
                        "SELECT relname, n_live_tup FROM pg_stat_user_tables WHERE schemaname = 'public'")
                .query((rs, i) -> row(Tags.of("table", rs.getString(1)), rs.getLong(2)))
                .list(), true);
    }

    private double epoch() {
        return jdbc.sql("SELECT epoch FROM scheduler_leader WHERE id = 1").query(Long.class).optional().orElse(0L);
    }

    private double databaseSize() {
        return jdbc.sql("SELECT pg_database_size(current_database())").query(Long.class).single();
    }

    private static MultiGauge.Row<Number> row(Tags tags, double value) {
        return MultiGauge.Row.of(tags, value);
    }

    private static String nullToEmpty(String value) {
        return value == null ? "" : value;
    }
}
