package dev.platform.scheduler.database;

import dev.platform.scheduler.testsupport.StoreSliceTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Flyway schema on real PostgreSQL holds its rules itself, whatever the Java code does. Each
 * test runs in the store slice's transaction, rolled back at its end.
 */
@StoreSliceTest
class SchemaConstraintsTest {

    @Autowired
    JdbcClient jdbc;

    @BeforeEach
    void aClusterQueue() {
        jdbc.sql("""
                INSERT INTO cluster_queue (name, queueing_strategy, stop_policy, spec)
                VALUES ('cq', 'BestEffortFIFO', 'None', '{}')""").update();
    }

    @Test
    void migrationsAreAppliedInOrder() {
        List<String> versions = jdbc.sql("SELECT version FROM flyway_schema_history WHERE success ORDER BY installed_rank")
                .query(String.class).list();
        assertThat(versions).startsWith("1");
    }

    @Test
    void negativeQuotaIsRejected() {
        assertThatThrownBy(() -> quota("-1", null))
                .isInstanceOf(DataIntegrityViolationException.class).hasMessageContaining("quantity_check");
    }

    @Test
    void lendingLimitAboveNominalIsRejected() {
        assertThatThrownBy(() -> quota("4", "5"))
                .isInstanceOf(DataIntegrityViolationException.class).hasMessageContaining("check");
    }

    @Test
    void exactQuantitiesAreKept() {
        quota("0.001", "0.001");
        assertThat(jdbc.sql("SELECT nominal_quota::text FROM cluster_queue_quota").query(String.class).single())
                .isEqualTo("0.001");
    }

    @Test
    void unknownEnumValueIsRejected() {
        assertThatThrownBy(() -> jdbc.sql("""
                INSERT INTO cluster_queue (name, queueing_strategy, stop_policy, spec)
                VALUES ('other', 'Fastest', 'None', '{}')""").update())
                .isInstanceOf(DataIntegrityViolationException.class);
    }

    @Test
    void invalidNamesAreRejected() {
        assertThatThrownBy(() -> jdbc.sql("""
                INSERT INTO resource_flavor (name, spec) VALUES ('Not_A_DNS_Name', '{}')""").update())
                .isInstanceOf(DataIntegrityViolationException.class).hasMessageContaining("k8s_name");
    }

    @Test
    void quotaRowsGoWithTheirQueue() {
        quota("4", null);
        jdbc.sql("DELETE FROM cluster_queue WHERE name = 'cq'").update();
        assertThat(jdbc.sql("SELECT count(*) FROM cluster_queue_quota").query(Long.class).single()).isZero();
    }

    @Test
    void onlyOneGlobalDefaultPriorityClass() {
        jdbc.sql("INSERT INTO priority_class (kind, name, value, global_default, spec) VALUES ('PriorityClass', 'a', 1, true, '{}')")
                .update();
        assertThatThrownBy(() -> jdbc.sql("""
                INSERT INTO priority_class (kind, name, value, global_default, spec)
                VALUES ('PriorityClass', 'b', 2, true, '{}')""").update())
                .isInstanceOf(DataIntegrityViolationException.class);
    }

    @Test
    void perQueueWorkloadCountersFollowEveryTransition() {
        jdbc.sql("""
                INSERT INTO workload (uid, namespace, name, kind, cluster_queue, state, manifest, pod_sets, queue_timestamp)
                VALUES ('00000000-0000-0000-0000-000000000001', 'ns', 'a', 'Job', 'cq', 'Pending', '{}', '[]', now()),
                       ('00000000-0000-0000-0000-000000000002', 'ns', 'b', 'Job', 'cq', 'Pending', '{}', '[]', now())""")
                .update();
        assertThat(counts("cq")).containsExactly(2L, 0L);

        jdbc.sql("UPDATE workload SET state = 'Admitted', admission = '{}' WHERE name = 'a'").update();
        assertThat(counts("cq")).containsExactly(1L, 1L);

        jdbc.sql("UPDATE workload SET cluster_queue = 'other' WHERE name = 'b'").update();
        assertThat(counts("cq")).containsExactly(0L, 1L);
        assertThat(counts("other")).containsExactly(1L, 0L);

        jdbc.sql("UPDATE workload SET state = 'Finished' WHERE name = 'a'").update();
        jdbc.sql("DELETE FROM workload WHERE name = 'b'").update();
        assertThat(counts("cq")).containsExactly(0L, 0L);
        assertThat(counts("other")).containsExactly(0L, 0L);
    }

    private List<Long> counts(String clusterQueue) {
        return jdbc.sql("SELECT pending, admitted FROM cluster_queue_workload_count WHERE cluster_queue = ?")
                .param(clusterQueue).query((rs, i) -> List.of(rs.getLong(1), rs.getLong(2))).single();
    }

    private void quota(String nominal, String lending) {
        jdbc.sql("""
                INSERT INTO cluster_queue_quota (cluster_queue, group_index, flavor_index, flavor, resource,
                                                 nominal_quota, lending_limit)
                VALUES ('cq', 0, 0, 'default', 'cpu', ?::numeric, ?::numeric)""")
                .params(nominal, lending).update();
    }
}
