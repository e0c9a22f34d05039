package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.core.Decision;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Kueue's metric names, so dashboards built for Kueue work unchanged: counters of admissions,
 * evictions and preemptions from the committed decisions, and gauges of pending workloads and
 * ClusterQueue usage read from PostgreSQL (the same on every replica).
 */
@Component
class SchedulingMetrics {

    private final MeterRegistry registry;
    private final JdbcClient jdbc;
    private final MultiGauge pending;
    private final MultiGauge usage;

    SchedulingMetrics(MeterRegistry registry, JdbcClient jdbc) {
        this.registry = registry;
        this.jdbc = jdbc;
        this.pending = MultiGauge.builder("kueue.pending.workloads")
                .description("Pending workloads per ClusterQueue").register(registry);
        this.usage = MultiGauge.builder("kueue.cluster.queue.resource.usage")
                .description("Quota in use per ClusterQueue, flavor and resource").register(registry);
    }

    /** Counts what a committed cycle did. */
    void committed(List<Decision.Admit> admitted, List<Decision.Preempt> preempted, List<Decision.Evict> evicted,
                   Instant at) {
        for (Decision.Admit a : admitted) {
            String queue = a.admission().clusterQueue();
            Counter.builder("kueue.admitted.workloads").tag("cluster_queue", queue).register(registry).increment();
            Timer.builder("kueue.admission.wait.time").tag("cluster_queue", queue)
                    .publishPercentileHistogram().register(registry)
                    .record(Duration.between(a.workload().queuedAt(), at).abs());
        }
        for (Decision.Preempt p : preempted) {
            Counter.builder("kueue.preempted.workloads").tag("preempting_cluster_queue", p.preemptorClusterQueue())
                    .tag("reason", p.reason().name()).register(registry).increment();
            Counter.builder("kueue.evicted.workloads").tag("cluster_queue", p.victimClusterQueue())
                    .tag("reason", "Preempted").register(registry).increment();
        }
        for (Decision.Evict e : evicted) {
            Counter.builder("kueue.evicted.workloads").tag("cluster_queue", e.clusterQueue())
                    .tag("reason", "Stopped").register(registry).increment();
        }
    }

    /** MTTR phases of a hotswap as they land: decided, evictions done, running (seconds from detection). */
    void hotswapDecided(dev.platform.scheduler.hotswap.HotswapEvent event) {
        phase("decided", event.detectedAt(), event.decidedAt());
        phase("evicted", event.detectedAt(), event.evictionsDoneAt());
    }

    void hotswapRecovered(dev.platform.scheduler.hotswap.HotswapEvent event) {
        phase("running", event.detectedAt(), event.runningAt());
    }

    void phase(String phase, Instant from, Instant to) {
        if (from != null && to != null) {
            Timer.builder("platform.hotswap.recovery").tag("phase", phase).publishPercentileHistogram()
                    .register(registry).record(Duration.between(from, to));
        }
    }

    @Scheduled(fixedDelayString = "${platform.metrics.refresh:15s}", initialDelayString = "${platform.metrics.refresh:15s}")
    void refreshGauges() {
        pending.register(jdbc.sql("""
                        SELECT cluster_queue, count(*) FROM workload
                        WHERE state = 'Pending' AND cluster_queue IS NOT NULL GROUP BY cluster_queue""")
                .query((rs, i) -> MultiGauge.Row.of(Tags.of("cluster_queue", rs.getString(1)), rs.getLong(2)))
                .list(), true);
        usage.register(jdbc.sql("""
                        SELECT cluster_queue, flavor, resource, sum(amount) FROM workload_usage
                        GROUP BY cluster_queue, flavor, resource""")
                .query((rs, i) -> MultiGauge.Row.of(Tags.of("cluster_queue", rs.getString(1), "flavor", rs.getString(2),
                        "resource", rs.getString(3)), rs.getBigDecimal(4).doubleValue()))
                .list(), true);
    }
}
