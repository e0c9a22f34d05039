package dev.platform.scheduler.workload;

import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.workload.WorkloadRunStates.Observation;
import dev.platform.scheduler.workload.WorkloadRunStates.Outcome;
import dev.platform.scheduler.workload.WorkloadTransitions.Admitting;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import static dev.platform.scheduler.testsupport.StoredWorkloads.admission;
import static dev.platform.scheduler.testsupport.StoredWorkloads.submit;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What agents observe, applied to workloads: running where the admission placed it, ended with the cluster's
 * outcome; a workload in any other state is left alone, so a repeated observation changes nothing.
 */
@StoreSliceTest
class WorkloadRunStatesTest {

    private static final Instant T0 = StoreSliceTest.NOW;

    @Autowired
    WorkloadRunStates runStates;

    @Autowired
    WorkloadTransitions transitions;

    @Autowired
    WorkloadStore store;

    private UUID admitted(String name) {
        UUID uid = submit(transitions, "team-a", name, "lq", "cq", 0, T0);
        WorkloadRow pending = store.find("team-a", name).orElseThrow();
        assertThat(transitions.admit(List.of(new Admitting(uid, pending.version(), "cq", admission("cq", "pool-a"),
                "prod-1", List.of())), T0, 1)).containsKey(uid);
        return uid;
    }

    private WorkloadState state(String name) {
        return store.find("team-a", name).orElseThrow().state();
    }

    @Test
    void observationsMoveWorkloadsOnOnceAndLeaveTheOthersAlone() {
        observationsMoveWorkloadsOnOnce(List.of());
    }

    /** A FULL report's thousands of long-ended JobSets: the workloads are matched in one pass, not looked up. */
    @Test
    void aReportOfThousandsOfJobSetsMovesTheSameWorkloads() {
        observationsMoveWorkloadsOnOnce(Stream.generate(UUID::randomUUID).limit(WorkloadTransitions.LOOKED_UP)
                .map(uid -> Observation.ended(uid, Outcome.SUCCEEDED, "long ago")).toList());
    }

    private void observationsMoveWorkloadsOnOnce(List<Observation> longEnded) {
        UUID runs = admitted("runs");
        UUID succeeds = admitted("succeeds");
        UUID fails = admitted("fails");
        UUID waits = submit(transitions, "team-a", "waits", "lq", "cq", 0, T0);
        admitted("not-reported");
        List<Observation> observations = List.of(
                Observation.running(runs, "prod-1", List.of("pool-a"), "pods ready", 1),
                Observation.running(waits, "prod-1", List.of("pool-a"), "pods ready", 1),
                Observation.ended(succeeds, Outcome.SUCCEEDED, "done"),
                Observation.ended(fails, Outcome.FAILED, "BackoffLimitExceeded"),
                Observation.ended(waits, Outcome.FAILED, "stale"),
                Observation.ended(UUID.randomUUID(), Outcome.SUCCEEDED, "not ours"));
        observations = Stream.concat(observations.stream(), longEnded.stream()).toList();

        WorkloadRunStates.Transitions changed = runStates.apply(observations, T0.plusSeconds(5));

        assertThat(changed.running()).containsExactly(runs);
        assertThat(changed.finished()).containsExactly(succeeds, fails);
        assertThat(List.of(state("runs"), state("succeeds"), state("fails"), state("waits"), state("not-reported")))
                .containsExactly(WorkloadState.Running, WorkloadState.Finished, WorkloadState.Failed, WorkloadState.Pending,
                        WorkloadState.Admitted);
        assertThat(store.events(fails)).last().satisfies(e -> {
            assertThat(e.reason()).isEqualTo("Failed");
            assertThat(e.message()).isEqualTo("BackoffLimitExceeded");
        });
        assertThat(runStates.apply(observations, T0.plusSeconds(6)).isEmpty()).isTrue();
        assertThat(runStates.apply(List.of(), T0).isEmpty()).isTrue();
    }
}
