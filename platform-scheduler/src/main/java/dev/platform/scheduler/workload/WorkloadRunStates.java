package dev.platform.scheduler.workload;

import dev.platform.scheduler.workload.WorkloadTransitions.Ending;
import dev.platform.scheduler.workload.WorkloadTransitions.RunState;
import org.springframework.stereotype.Repository;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What agents see of admitted workloads in their clusters, written back through the workload's
 * transitions: Admitted -> Running when pods run, Admitted/Running -> Finished or Failed when the
 * JobSet reaches a terminal state (the Kueue Finished condition, reasons Succeeded and Failed), and
 * whether all its pods are ready (Kueue's PodsReady condition, which the leader's pods-ready timers
 * follow), Pending -> Finished when a JobSet completed as its workload was evicted. A finished workload gives its
 * quota back. The last checkpoint a JobSet's annotation names in its cluster
 * moves the workload's forward, where its lost work counts from. Runs in the caller's transaction.
 */
@Repository
public class WorkloadRunStates {

    private final WorkloadTransitions transitions;

    public WorkloadRunStates(WorkloadTransitions transitions) {
        this.transitions = transitions;
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
     * One observation: the workload runs ({@code outcome} null, {@code running} true) in {@code cluster} on
     * {@code nodePools}, or waits there for its pods ({@code running} false), or has ended with {@code outcome}.
     * {@code readyPods} counts its ready and succeeded pods (null for an ended workload).
     */
    public record Observation(UUID uid, Outcome outcome, String message, String cluster, List<String> nodePools,
                              boolean running, Integer readyPods) {

        public static Observation running(UUID uid, String cluster, List<String> nodePools, String message,
                                          int readyPods) {
            return new Observation(uid, null, message, cluster, List.copyOf(nodePools), true, readyPods);
        }

        /** Its JobSet exists in {@code cluster} and runs no pod (not yet, or no longer). */
        public static Observation waiting(UUID uid, String cluster, int readyPods) {
            return new Observation(uid, null, null, cluster, List.of(), false, readyPods);
        }

        public static Observation ended(UUID uid, Outcome outcome, String message) {
            return new Observation(uid, outcome, message, null, List.of(), false, null);
        }

        /**
         * Its JobSet in {@code cluster} completed while the workload is placed nowhere: stopped by an eviction in
         * the instant its pods completed, or a report older than its eviction.
         */
        public static Observation completedUnplaced(UUID uid, String cluster, String message) {
            return new Observation(uid, Outcome.SUCCEEDED, message, cluster, List.of(), false, null);
        }

        boolean isCompletedUnplaced() {
            return outcome != null && cluster != null;
        }
    }

    /** What changed: the workloads now Running and those that finished (and released their quota). */
    public record Transitions(List<UUID> running, List<UUID> finished) {

        public boolean isEmpty() {
            return running.isEmpty() && finished.isEmpty();
        }
    }

    /** The last checkpoints clusters reported, by workload: each moves the stored one forward only. */
    public List<UUID> recordCheckpoints(Map<UUID, Instant> reported) {
        if (reported.isEmpty()) {
            return List.of();
        }
        transitions.lockChanges();
        return transitions.recordCheckpoints(reported);
    }

    /**
     * Applies the observations; a workload in any other state (unknown, pending, already
     * finished, or already running for a running observation) is left alone. A cluster's FULL report observes
     * every JobSet it has, most of them ended long ago: one statement reads which observations can change
     * anything, and the endings are written together, so the writers' lock is held for a few statements
     * rather than several per JobSet.
     */
    public Transitions apply(List<Observation> observations, Instant now) {
        List<UUID> running = new ArrayList<>();
        if (observations.isEmpty()) {
            return new Transitions(running, List.of());
        }
        transitions.lockChanges();
        Map<UUID, RunState> states = transitions.runStates(observations.stream().map(Observation::uid).toList());
        List<Ending> endings = new ArrayList<>();
        Map<String, List<Ending>> completedUnplaced = new HashMap<>();
        for (Observation o : observations) {
            if (o.isCompletedUnplaced()) {
                completedUnplaced.computeIfAbsent(o.cluster(), c -> new ArrayList<>())
                        .add(new Ending(o.uid(), WorkloadState.Finished, o.outcome().reason, o.message()));
                continue;
            }
            RunState state = states.get(o.uid());
            if (state == null) {
                continue;
            }
            if (o.outcome() != null) {
                endings.add(new Ending(o.uid(), o.outcome().state, o.outcome().reason, o.message()));
                continue;
            }
            boolean justRunning = o.running() && state.state() == WorkloadState.Admitted
                    && transitions.markRunning(o.uid(), o.cluster(), o.nodePools(), now, o.message());
            if (justRunning) {
                running.add(o.uid());
            }
            if (o.cluster().equals(state.cluster()) && state.readinessChangedBy(o.readyPods())) {
                transitions.recordPodsReady(o.uid(), o.cluster(), o.readyPods(), now, justRunning);
            }
        }
        List<UUID> finished = new ArrayList<>(transitions.end(endings, now));
        completedUnplaced.forEach((cluster, completed) ->
                finished.addAll(transitions.finishCompletedAfterStop(cluster, completed, now)));
        return new Transitions(running, finished);
    }
}
