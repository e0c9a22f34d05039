package dev.platform.scheduler.retention;

import dev.platform.scheduler.leadership.LeaderStatus;
import dev.platform.scheduler.workload.WorkloadTransitions;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Deletes history past its retention ({@link RetentionProperties}), on the scheduling leader only
 * so replicas do not compete for the same rows, in batches of {@code batchSize} rows, each its own
 * short transaction, until a batch comes back short.
 */
@Component
public class HistoryRetention {

    private static final Logger log = LoggerFactory.getLogger(HistoryRetention.class);

    /** One history: how to delete one batch of at most {@code batch} rows older than {@code cutoff}. */
    private record History(String table, BatchDelete deleteBatch) {
    }

    @FunctionalInterface
    private interface BatchDelete {
        int delete(Instant cutoff, int batch);
    }

    private final History preemptions;
    /** Kept as long as the preemptions: a preemption's lost work is in both. */
    private final History lostWork;
    private final History hotswaps;
    private final History workloadEvents;
    /** Timeline, usage and cluster status rows go with the workload (ON DELETE CASCADE). */
    private final History finishedWorkloads;
    private final Clock clock;
    private final RetentionProperties properties;
    private final MeterRegistry registry;
    private final LeaderStatus leader;

    public HistoryRetention(JdbcClient jdbc, WorkloadTransitions transitions, Clock clock,
                            RetentionProperties properties, MeterRegistry registry, LeaderStatus leader) {
        this.preemptions = new History("preemption_event", (cutoff, batch) -> deleteBatch(jdbc, """
                DELETE FROM preemption_event WHERE id IN (
                    SELECT id FROM preemption_event WHERE at < :cutoff ORDER BY at LIMIT :batch)""", cutoff, batch));
        this.lostWork = new History("lost_work", (cutoff, batch) -> deleteBatch(jdbc, """
                DELETE FROM lost_work WHERE id IN (
                    SELECT id FROM lost_work WHERE at < :cutoff ORDER BY at LIMIT :batch)""", cutoff, batch));
        this.hotswaps = new History("hotswap_event", (cutoff, batch) -> deleteBatch(jdbc, """
                DELETE FROM hotswap_event WHERE id IN (
                    SELECT id FROM hotswap_event WHERE outcome <> 'InProgress' AND detected_at < :cutoff
                    ORDER BY detected_at LIMIT :batch)""", cutoff, batch));
        this.workloadEvents = new History("workload_event", (cutoff, batch) -> deleteBatch(jdbc, """
                DELETE FROM workload_event WHERE id IN (
                    SELECT id FROM workload_event WHERE at < :cutoff ORDER BY at LIMIT :batch)""", cutoff, batch));
        this.finishedWorkloads = new History("workload", transitions::deleteFinishedBefore);
        this.clock = clock;
        this.properties = properties;
        this.registry = registry;
        this.leader = leader;
    }

    @Scheduled(fixedDelayString = "${platform.retention.interval:10m}", initialDelayString = "${platform.retention.interval:10m}")
    void purgeOnTheLeader() {
        if (leader.isLeader()) {
            purge();
        }
    }

    /** Deletes what is past its retention; the rows deleted per table. */
    public Map<String, Long> purge() {
        Map<String, Long> deleted = new LinkedHashMap<>();
        purge(preemptions, properties.preemptions(), deleted);
        purge(lostWork, properties.preemptions(), deleted);
        purge(hotswaps, properties.hotswaps(), deleted);
        purge(workloadEvents, properties.workloadEvents(), deleted);
        purge(finishedWorkloads, properties.finishedWorkloads(), deleted);
        return deleted;
    }

    private void purge(History history, Duration retention, Map<String, Long> deleted) {
        if (retention == null || !leader.isLeader()) {
            return;
        }
        Instant cutoff = clock.instant().minus(retention);
        long total = 0;
        int batch;
        do {
            batch = history.deleteBatch().delete(cutoff, properties.batchSize());
            total += batch;
        } while (batch == properties.batchSize() && leader.isLeader());
        if (total > 0) {
            Counter.builder("platform.retention.deleted").description("History rows deleted past their retention")
                    .tag("table", history.table()).register(registry).increment(total);
            log.info("retention: deleted {} {} row(s) older than {}", total, history.table(), retention);
        }
        deleted.put(history.table(), total);
    }

    private static int deleteBatch(JdbcClient jdbc, String sql, Instant cutoff, int batch) {
        return jdbc.sql(sql).param("cutoff", Timestamp.from(cutoff)).param("batch", batch).update();
    }
}
