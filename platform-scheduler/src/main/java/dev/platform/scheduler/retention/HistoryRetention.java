package dev.platform.scheduler.retention;

import dev.platform.scheduler.scheduling.SchedulingLoop;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Deletes history past its retention ({@link RetentionProperties}), on the scheduling leader only
 * so replicas do not compete for the same rows, in batches of {@code batchSize} rows, each its own
 * short transaction, until a batch comes back short.
 */
@Component
public class HistoryRetention {

    private static final Logger log = LoggerFactory.getLogger(HistoryRetention.class);

    /** One history: the statement that deletes one batch of rows older than :cutoff. */
    private record History(String table, String deleteBatch) {
    }

    private static final History PREEMPTIONS = new History("preemption_event", """
            DELETE FROM preemption_event WHERE id IN (
                SELECT id FROM preemption_event WHERE at < :cutoff ORDER BY at LIMIT :batch)""");
    private static final History HOTSWAPS = new History("hotswap_event", """
            DELETE FROM hotswap_event WHERE id IN (
                SELECT id FROM hotswap_event WHERE outcome <> 'InProgress' AND detected_at < :cutoff
                ORDER BY detected_at LIMIT :batch)""");
    private static final History WORKLOAD_EVENTS = new History("workload_event", """
            DELETE FROM workload_event WHERE id IN (
                SELECT id FROM workload_event WHERE at < :cutoff ORDER BY at LIMIT :batch)""");
    /** Timeline, usage and cluster status rows go with the workload (ON DELETE CASCADE). */
    private static final History FINISHED_WORKLOADS = new History("workload", """
            DELETE FROM workload WHERE uid IN (
                SELECT uid FROM workload WHERE state IN ('Finished', 'Failed') AND finished_at < :cutoff
                ORDER BY finished_at LIMIT :batch)""");

    private final JdbcClient jdbc;
    private final Clock clock;
    private final RetentionProperties properties;
    private final MeterRegistry registry;
    private final BooleanSupplier leader;

    @Autowired
    public HistoryRetention(JdbcClient jdbc, Clock clock, RetentionProperties properties, MeterRegistry registry,
                            SchedulingLoop loop) {
        this(jdbc, clock, properties, registry, loop::isLeader);
    }

    HistoryRetention(JdbcClient jdbc, Clock clock, RetentionProperties properties, MeterRegistry registry,
                     BooleanSupplier leader) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.properties = properties;
        this.registry = registry;
        this.leader = leader;
    }

    @Scheduled(fixedDelayString = "${platform.retention.interval:10m}", initialDelayString = "${platform.retention.interval:10m}")
    void purgeOnTheLeader() {
        if (leader.getAsBoolean()) {
            purge();
        }
    }

    /** Deletes what is past its retention; the rows deleted per table. */
    public Map<String, Long> purge() {
        Map<String, Long> deleted = new LinkedHashMap<>();
        purge(PREEMPTIONS, properties.preemptions(), deleted);
        purge(HOTSWAPS, properties.hotswaps(), deleted);
        purge(WORKLOAD_EVENTS, properties.workloadEvents(), deleted);
        purge(FINISHED_WORKLOADS, properties.finishedWorkloads(), deleted);
        return deleted;
    }

    private void purge(History history, Duration retention, Map<String, Long> deleted) {
        if (retention == null || !leader.getAsBoolean()) {
            return;
        }
        Timestamp cutoff = Timestamp.from(clock.instant().minus(retention));
        long total = 0;
        int batch;
        do {
            batch = jdbc.sql(history.deleteBatch()).param("cutoff", cutoff).param("batch", properties.batchSize()).update();
            total += batch;
        } while (batch == properties.batchSize() && leader.getAsBoolean());
        if (total > 0) {
            Counter.builder("platform.retention.deleted").description("History rows deleted past their retention")
                    .tag("table", history.table()).register(registry).increment(total);
            log.info("retention: deleted {} {} row(s) older than {}", total, history.table(), retention);
        }
        deleted.put(history.table(), total);
    }
}
