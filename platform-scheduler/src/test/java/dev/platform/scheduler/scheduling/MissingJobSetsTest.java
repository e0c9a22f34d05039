package dev.platform.scheduler.scheduling;

import dev.platform.api.reason.EvictionReason;
import dev.platform.scheduler.cluster.ClusterWorkloads.MissingJobSet;
import dev.platform.scheduler.commit.WorkloadDecision;
import dev.platform.scheduler.workload.WorkloadTransitions.Expected;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What becomes of a workload whose JobSet is missing from its cluster: requeued with reason JobSetMissing while its
 * JobSet's failurePolicy.maxRestarts leaves a restart (or sets no limit), failed once it leaves none; guarded by the
 * version read, its remnant deleted.
 */
class MissingJobSetsTest {

    private static final Instant ACKNOWLEDGED = Instant.parse("2026-03-01T12:00:00Z");

    private static MissingJobSet missing(int restarts, Integer maxRestarts) {
        return new MissingJobSet(UUID.fromString("00000000-0000-0000-0000-000000000001"), "team-a", "train", "prod-1",
                7, "cq", null, restarts, maxRestarts, ACKNOWLEDGED, ACKNOWLEDGED.plusSeconds(30));
    }

    @Test
    void withARestartLeftOrNoLimitTheWorkloadIsRequeuedAndItsRemnantDeleted() {
        for (MissingJobSet m : new MissingJobSet[]{missing(0, null), missing(1, 2)}) {
            assertThat(MissingJobSets.decide(m)).isInstanceOfSatisfying(WorkloadDecision.Requeue.class, r -> {
                assertThat(r.reason()).isEqualTo(EvictionReason.JobSetMissing);
                assertThat(r.expected()).isEqualTo(new Expected.AtVersion(7));
                assertThat(r.then()).isEqualTo(WorkloadDecision.AfterRelease.DELETE);
                assertThat(r.endsHotswap()).as("a hotswap of it in progress ends Requeued").isTrue();
                assertThat(r.message()).contains("team-a/train", "no longer in cluster prod-1");
            });
        }
    }

    @Test
    void withNoRestartLeftTheWorkloadFails() {
        for (MissingJobSet m : new MissingJobSet[]{missing(0, 0), missing(2, 2)}) {
            assertThat(MissingJobSets.decide(m)).isInstanceOfSatisfying(WorkloadDecision.Fail.class, f -> {
                assertThat(f.reason()).isEqualTo("JobSetMissing");
                assertThat(f.message()).contains("maxRestarts (" + m.maxRestarts() + ") leaves no restart");
                assertThat(f.then()).isEqualTo(WorkloadDecision.AfterRelease.DELETE);
            });
        }
    }
}
