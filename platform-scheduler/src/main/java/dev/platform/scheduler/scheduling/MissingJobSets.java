package dev.platform.scheduler.scheduling;

import dev.platform.api.reason.EvictionReason;
import dev.platform.scheduler.cluster.AgentsProperties;
import dev.platform.scheduler.cluster.ClusterWorkloads;
import dev.platform.scheduler.cluster.ClusterWorkloads.MissingJobSet;
import dev.platform.scheduler.commit.DecisionCommitter;
import dev.platform.scheduler.commit.WorkloadDecision;
import dev.platform.scheduler.workload.WorkloadTransitions.Expected;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The scheduling loop's step that reconciles the platform with what its clusters really run: a workload whose
 * JobSet its cluster acknowledged starting, and that a FULL report of that cluster (not stale) received at least
 * {@code platform.agents.missing-jobset-grace} later lacks (nor has any report put it back since), holds quota for
 * nothing (the JobSet was deleted by hand, or the
 * cluster was rebuilt or came back empty). As Kueue ends the Workload of a deleted Job and frees its quota, it is
 * requeued at its original place with reason {@code JobSetMissing}, to be started again, or failed when its
 * JobSet's {@code failurePolicy.maxRestarts} leaves no restart; a DELETE makes sure no remnant of the JobSet stays,
 * and a hotswap of it in progress ends Requeued.
 * One commit fenced by the leader epoch, each decision guarded by the version read; the change feed brings the
 * rows back to the cache, which frees their quota and pools.
 */
@Component
class MissingJobSets {

    /** How often the clusters are held against the database: cheap (one query over the workloads holding quota). */
    private static final Duration CHECK_INTERVAL = Duration.ofSeconds(1);

    private final ClusterWorkloads clusterWorkloads;
    private final DecisionCommitter committer;
    private final SchedulingMetrics metrics;
    private final Clock clock;
    private final Duration grace;
    private final Duration staleness;
    private Instant nextCheck = Instant.MIN;

    MissingJobSets(ClusterWorkloads clusterWorkloads, DecisionCommitter committer, SchedulingMetrics metrics,
                   Clock clock, AgentsProperties agents) {
        this.clusterWorkloads = clusterWorkloads;
        this.committer = committer;
        this.metrics = metrics;
        this.clock = clock;
        this.grace = agents.missingJobsetGrace();
        this.staleness = agents.staleness();
    }

    /** Requeues or fails every workload whose JobSet is missing; true when any decision landed. */
    boolean run(long epoch) {
        Instant now = clock.instant();
        if (now.isBefore(nextCheck)) {
            return false;
        }
        nextCheck = now.plus(CHECK_INTERVAL);
        List<MissingJobSet> missing = clusterWorkloads.missingJobSets(now.minus(staleness), grace);
        if (missing.isEmpty()) {
            return false;
        }
        List<WorkloadDecision> decisions = missing.stream().map(MissingJobSets::decide).toList();
        DecisionCommitter.Committed committed = committer.commit(epoch, decisions);
        boolean landed = false;
        for (int i = 0; i < missing.size(); i++) {
            MissingJobSet m = missing.get(i);
            if (committed.landed(m.uid())) {
                boolean failed = decisions.get(i) instanceof WorkloadDecision.Fail;
                metrics.jobSetMissing(m, failed);
                DecisionLog.jobSetMissing(m, failed);
                landed = true;
            }
        }
        return landed;
    }

    /**
     * Requeued at its original place, its quota released; failed instead when no restart is left to it (its
     * restarts so far have reached {@code failurePolicy.maxRestarts}): starting the JobSet again is a restart.
     */
    static WorkloadDecision decide(MissingJobSet m) {
        String message = "JobSet " + m.namespace() + "/" + m.name() + " is no longer in cluster " + m.cluster()
                + ": the cluster acknowledged it at " + m.acknowledgedAt() + " and its full report at "
                + m.fullReportAt() + " no longer has it";
        Expected atVersion = new Expected.AtVersion(m.version());
        if (m.maxRestarts() != null && m.restarts() >= m.maxRestarts()) {
            return new WorkloadDecision.Fail(m.uid(), atVersion, EvictionReason.JobSetMissing.name(), message
                    + "; failurePolicy.maxRestarts (" + m.maxRestarts() + ") leaves no restart",
                    WorkloadDecision.AfterRelease.DELETE);
        }
        return new WorkloadDecision.Requeue(m.uid(), atVersion, EvictionReason.JobSetMissing, message,
                "Requeued at its original position after its JobSet went missing from its cluster",
                WorkloadDecision.AfterRelease.DELETE, true);
    }
}
