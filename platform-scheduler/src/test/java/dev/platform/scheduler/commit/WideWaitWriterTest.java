package dev.platform.scheduler.commit;

import dev.platform.api.reason.PendingReason;
import dev.platform.scheduler.leadership.LeadershipLost;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.StoredWorkloads;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A whole backlog's reasons written by several connections: each workload's last reason once, with its timeline
 * entry, none over an inactive workload, and nothing by a leader whose epoch is over. Run between the loop's
 * turns, so that only what the writer wrote is in the tables.
 */
class WideWaitWriterTest extends PlatformApplicationTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    @Autowired
    WideWaitWriter writer;

    @Autowired
    WorkloadTransitions transitions;

    @Autowired
    TransactionTemplate transactions;

    @Test
    void eachPendingWorkloadGetsItsLastReasonOnceAndAnInactiveOneKeepsItsOwn() {
        loop.quiesced(() -> {
            List<UUID> pending = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                String name = "wide-" + i;
                pending.add(transactions.execute(status -> StoredWorkloads.submit(transitions, "team-a", name, "lq",
                        "cq", 0, NOW)));
            }
            UUID inactive = pending.remove(5);
            jdbc.sql("UPDATE workload SET active = false WHERE uid = ?").param(inactive).update();
            jdbc.sql("UPDATE workload_pending_reason SET reason = 'Deactivated' WHERE workload_uid = ?")
                    .param(inactive).update();
            long epoch = jdbc.sql("SELECT epoch FROM scheduler_leader").query(Long.class).single();
            List<WorkloadDecision.Wait> waits = new ArrayList<>();
            pending.forEach(uid -> waits.add(wait(uid, PendingReason.WaitingForQuota, "first thought")));
            pending.forEach(uid -> waits.add(wait(uid, PendingReason.QueueStopped, "queue " + uid + " stopped")));
            waits.add(wait(inactive, PendingReason.WaitingForQuota, "not for an inactive workload"));

            writer.write(epoch, NOW.plusSeconds(1), waits);

            for (UUID uid : pending) {
                assertThat(jdbc.sql("SELECT reason || ' ' || message FROM workload_pending_reason"
                                + " WHERE workload_uid = ?")
                        .param(uid).query(String.class).single()).isEqualTo("QueueStopped queue " + uid + " stopped");
                assertThat(jdbc.sql("""
                                SELECT type || '=' || status || '/' || reason FROM workload_event
                                WHERE workload_uid = ? AND at = ?""")
                        .params(uid, Timestamp.from(NOW.plusSeconds(1))).query(String.class).list())
                        .as("one timeline entry, the last reason's").containsExactly("QuotaReserved=False/QueueStopped");
            }
            assertThat(jdbc.sql("SELECT reason FROM workload_pending_reason WHERE workload_uid = ?").param(inactive)
                    .query(String.class).single()).isEqualTo("Deactivated");

            assertThatThrownBy(() -> writer.write(epoch - 1, NOW.plusSeconds(2), waits))
                    .isInstanceOf(LeadershipLost.class);
            assertThat(jdbc.sql("SELECT count(*) FROM workload_event WHERE at = ?")
                    .param(Timestamp.from(NOW.plusSeconds(2))).query(Long.class).single())
                    .as("nothing from a deposed leader").isZero();
        }).join();
    }

    private static WorkloadDecision.Wait wait(UUID uid, PendingReason reason, String message) {
        return new WorkloadDecision.Wait(uid, reason, message, "QuotaReserved");
    }
}
