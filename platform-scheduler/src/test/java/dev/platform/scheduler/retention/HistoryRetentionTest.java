package dev.platform.scheduler.retention;

import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.workload.WorkloadTransitions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Retention deletes history past its age in batches, keeps what is younger (and hotswaps in
 * progress, and workloads still active), does nothing where no retention is set, and runs on the
 * leader only.
 */
@StoreSliceTest
class HistoryRetentionTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    WorkloadTransitions transitions;

    private static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");
    private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    private final AtomicBoolean leader = new AtomicBoolean(true);

    private UUID oldFinished;
    private UUID recentFinished;
    private UUID oldRunning;

    @BeforeEach
    void history() {
        oldFinished = workload("old-finished", "Finished", NOW.minus(Duration.ofDays(100)));
        recentFinished = workload("recent-finished", "Finished", NOW.minus(Duration.ofDays(2)));
        oldRunning = workload("old-running", "Pending", null);
        for (int day : new int[]{100, 95, 91, 5}) {
            event(oldRunning, NOW.minus(Duration.ofDays(day)));
            preemption(NOW.minus(Duration.ofDays(day)));
        }
        event(oldFinished, NOW.minus(Duration.ofDays(100)));
        hotswap("Recovered", NOW.minus(Duration.ofDays(100)));
        hotswap("InProgress", NOW.minus(Duration.ofDays(100)));
        hotswap("Recovered", NOW.minus(Duration.ofDays(1)));
    }

    @Test
    void rowsPastTheirRetentionGoInBatchesAndTheRestStays() {
        HistoryRetention retention = retention(new RetentionProperties(Duration.ofDays(90), Duration.ofDays(30),
                Duration.ofDays(90), Duration.ofDays(30), 2, Duration.ofMinutes(10)));

        Map<String, Long> deleted = retention.purge();

        assertThat(deleted).containsEntry("preemption_event", 3L).containsEntry("hotswap_event", 1L)
                .containsEntry("workload", 1L);
        assertThat(count("preemption_event")).isEqualTo(1);
        assertThat(jdbc.sql("SELECT outcome FROM hotswap_event ORDER BY detected_at").query(String.class).list())
                .containsExactly("InProgress", "Recovered");
        assertThat(jdbc.sql("SELECT uid FROM workload").query(UUID.class).list())
                .containsExactlyInAnyOrder(recentFinished, oldRunning);
        // the old running workload keeps its recent entry; the finished one's went with it
        assertThat(jdbc.sql("SELECT count(*) FROM workload_event WHERE workload_uid = ?").param(oldRunning)
                .query(Long.class).single()).isEqualTo(1);
        assertThat(deleted.get("workload_event")).isEqualTo(4L);
    }

    @Test
    void withoutRetentionNothingIsDeletedAndAFollowerDeletesNothing() {
        long before = count("preemption_event") + count("workload_event") + count("hotswap_event") + count("workload");

        assertThat(retention(new RetentionProperties(null, null, null, null, 1000, Duration.ofMinutes(10))).purge())
                .isEmpty();
        leader.set(false);
        retention(new RetentionProperties(Duration.ofDays(1), Duration.ofDays(1), Duration.ofDays(1), Duration.ofDays(1),
                1000, Duration.ofMinutes(10))).purgeOnTheLeader();

        assertThat(count("preemption_event") + count("workload_event") + count("hotswap_event") + count("workload"))
                .isEqualTo(before);
    }

    private HistoryRetention retention(RetentionProperties properties) {
        return new HistoryRetention(jdbc, transitions, clock, properties, new SimpleMeterRegistry(), leader::get);
    }

    private long count(String table) {
        return jdbc.sql("SELECT count(*) FROM " + table).query(Long.class).single();
    }

    private UUID workload(String name, String state, Instant finishedAt) {
        UUID uid = UUID.randomUUID();
        jdbc.sql("""
                        INSERT INTO workload (uid, namespace, name, kind, state, manifest, pod_sets, queue_timestamp, finished_at)
                        VALUES (?, 'retention', ?, 'Job', ?, '{}', '[]', ?, ?)""")
                .params(uid, name, state, Timestamp.from(NOW.minus(Duration.ofDays(200))),
                        finishedAt == null ? null : Timestamp.from(finishedAt))
                .update();
        return uid;
    }

    private void event(UUID workload, Instant at) {
        jdbc.sql("INSERT INTO workload_event (workload_uid, at, type, status, reason) VALUES (?, ?, 'Admitted', 'True', 'Admitted')")
                .params(workload, Timestamp.from(at)).update();
    }

    private void preemption(Instant at) {
        jdbc.sql("""
                        INSERT INTO preemption_event (at, reason, message, preemptor_uid, preemptor_namespace, preemptor_name,
                            preemptor_priority, victim_uid, victim_namespace, victim_name, victim_priority)
                        VALUES (?, 'InClusterQueue', 'm', ?, 'retention', 'high', 10, ?, 'retention', 'low', 1)""")
                .params(Timestamp.from(at), UUID.randomUUID(), UUID.randomUUID()).update();
    }

    private void hotswap(String outcome, Instant detectedAt) {
        jdbc.sql("""
                        INSERT INTO hotswap_event (cluster, node_pool, reason, disrupted_uid, disrupted_namespace, disrupted_name,
                            outcome, detected_at)
                        VALUES ('sim', 'pool-a', 'NOT_READY', ?, 'retention', 'high', ?, ?)""")
                .params(UUID.randomUUID(), outcome, Timestamp.from(detectedAt)).update();
    }
}
