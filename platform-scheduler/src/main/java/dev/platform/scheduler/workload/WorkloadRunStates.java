package dev.platform.scheduler.workload;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What agents see of admitted workloads in their clusters, written back to the workload table:
 * Admitted -> Running when pods run, Admitted/Running -> Finished or Failed when the JobSet
 * reaches a terminal state (the Kueue Finished condition, reasons Succeeded and Failed). A
 * finished workload gives its quota back. Runs in the caller's transaction; like every workload
 * writer it takes {@link WorkloadStore#lockChanges()} and draws a change sequence, so the
 * scheduling loop sees the transition on its feed.
 */
@Repository
public class WorkloadRunStates {

    private final WorkloadStore store;
    private final JdbcClient jdbc;

    public WorkloadRunStates(WorkloadStore store, JdbcClient jdbc) {
        this.store = store;
        this.jdbc = jdbc;
    }

    /** A terminal outcome reported by a cluster. */
    public enum Outcome {
        SUCCEEDED(WorkloadState.Finished, "Succeeded"),
        FAILED(WorkloadState.Failed, "Failed");

        private final WorkloadState state;
        private final String reason;

        Outcome(WorkloadState state, String reason) {
            this.state = state;
            this.reason = reason;
        }
    }

    /**
     * One observation: the workload runs ({@code outcome} null) in {@code cluster} on
     * {@code nodePools}, or has ended with {@code outcome}.
     */
    public record Observation(UUID uid, Outcome outcome, String message, String cluster, List<String> nodePools) {

        public static Observation running(UUID uid, String cluster, List<String> nodePools, String message) {
            return new Observation(uid, null, message, cluster, List.copyOf(nodePools));
        }

        public static Observation ended(UUID uid, Outcome outcome, String message) {
            return new Observation(uid, outcome, message, null, List.of());
        }
    }

    /** What changed: the workloads now Running and those that finished (and released their quota). */
    public record Transitions(List<UUID> running, List<UUID> finished) {

        public boolean isEmpty() {
            return running.isEmpty() && finished.isEmpty();
        }
    }

    /**
     * Applies the observations; a workload in any other state (unknown, pending, already
     * finished, or already running for a running observation) is left alone.
     */
    public Transitions apply(List<Observation> observations, Instant now) {
        List<UUID> running = new ArrayList<>();
        List<UUID> finished = new ArrayList<>();
        if (observations.isEmpty()) {
            return new Transitions(running, finished);
        }
        store.lockChanges();
        List<WorkloadStore.NewEvent> events = new ArrayList<>();
        for (Observation o : observations) {
            if (o.outcome() == null) {
                if (markRunning(o)) {
                    running.add(o.uid());
                    events.add(new WorkloadStore.NewEvent(o.uid(), now, "PodsReady", "True", "PodsReady", o.message()));
                }
            } else if (finish(o.uid(), o.outcome(), now)) {
                finished.add(o.uid());
                events.add(new WorkloadStore.NewEvent(o.uid(), now, "Finished", "True", o.outcome().reason,
                        o.message()));
            }
        }
        store.appendEvents(events);
        return new Transitions(running, finished);
    }

    /**
     * Admitted -> Running when the pods run where the admission placed them: in its cluster and,
     * for a workload given whole node pools, on exactly those pools. Right after a hotswap the
     * workload is Admitted on its new pools while its old pods may still run on the old ones; that
     * is not the replacement running.
     */
    private boolean markRunning(Observation o) {
        return jdbc.sql("""
                UPDATE workload w SET state = 'Running', version = version + 1,
                       change_seq = nextval('workload_change_seq')
                WHERE w.uid = :uid AND w.state = 'Admitted' AND (w.cluster IS NULL OR w.cluster = :cluster)
                  AND coalesce((SELECT array_agg(DISTINCT p ORDER BY p)
                                FROM jsonb_array_elements(w.admission -> 'podSetAssignments') a,
                                     jsonb_array_elements_text(coalesce(a -> 'nodePools', '[]')) p), '{}')
                      IN ('{}', :pools::text[])""")
                .param("uid", o.uid()).param("cluster", o.cluster())
                .param("pools", o.nodePools().stream().distinct().sorted().toArray(String[]::new))
                .update() == 1;
    }

    private boolean finish(UUID uid, Outcome outcome, Instant now) {
        boolean ended = jdbc.sql("""
                UPDATE workload SET state = ?, finished_at = ?, pending_reason = NULL, pending_message = NULL,
                       version = version + 1, change_seq = nextval('workload_change_seq')
                WHERE uid = ? AND state IN ('Admitted', 'Running')""")
                .params(outcome.state.name(), Timestamp.from(now), uid).update() == 1;
        if (ended) {
            jdbc.sql("DELETE FROM workload_usage WHERE workload_uid = ?").param(uid).update();
        }
        return ended;
    }
}
