package dev.platform.scheduler.scheduling;

import dev.platform.api.reason.EvictionReason;
import dev.platform.scheduler.cluster.AgentsProperties;
import dev.platform.scheduler.cluster.ClusterDisruptions;
import dev.platform.scheduler.cluster.ClusterDisruptions.Disruption;
import dev.platform.scheduler.cluster.ClusterWorkloads;
import dev.platform.scheduler.cluster.ClusterWorkloads.MissingJobSet;
import dev.platform.scheduler.commit.DecisionCommitter;
import dev.platform.scheduler.commit.WorkloadDecision;
import dev.platform.scheduler.workload.WorkloadTransitions.Expected;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

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
 *
 * <p>A report that lacks too many of a cluster's running JobSets at once (more than
 * {@code platform.agents.disruption-percent} of them, and at least {@code disruption-minimum}) requeues nothing: the
 * cluster is marked disrupted ({@link ClusterDisruptions}), and its requeues wait for a later FULL report that lacks
 * them too, or an Ops or Admin user's confirmation. Kubernetes' node lifecycle controller stops evicting from a zone
 * whose nodes all go dark for the same reason: a fault of the observer is likelier than that much work ending at once.
 */
@Component
class MissingJobSets {

    private static final Logger log = LoggerFactory.getLogger(MissingJobSets.class);

    /** How often the clusters are held against the database: cheap (one query over the workloads holding quota). */
    private static final Duration CHECK_INTERVAL = Duration.ofSeconds(1);

    private final ClusterWorkloads clusterWorkloads;
    private final DecisionCommitter committer;
    private final SchedulingMetrics metrics;
    private final Clock clock;
    private final Duration grace;
    private final Duration staleness;
    private final ClusterDisruptions disruptions;
    private final int disruptionPercent;
    private final int disruptionMinimum;
    private Instant nextCheck = Instant.MIN;

    MissingJobSets(ClusterWorkloads clusterWorkloads, ClusterDisruptions disruptions, DecisionCommitter committer,
                   SchedulingMetrics metrics, Clock clock, AgentsProperties agents) {
        this.clusterWorkloads = clusterWorkloads;
        this.disruptions = disruptions;
        this.disruptionPercent = agents.disruptionPercent();
        this.disruptionMinimum = agents.disruptionMinimum();
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
        List<MissingJobSet> missing = notHeld(clusterWorkloads.missingJobSets(now.minus(staleness), grace), now);
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
     * The missing JobSets whose requeues may go ahead, cluster by cluster: all of a cluster that lacks few of its
     * running JobSets, or whose disruption a later FULL report or an operator confirmed; none of a cluster that
     * lacks too many at once, which is marked disrupted. A disrupted cluster whose JobSets are back is cleared.
     */
    private List<MissingJobSet> notHeld(List<MissingJobSet> missing, Instant now) {
        Map<String, Disruption> disrupted = disruptions.disrupted();
        if (missing.isEmpty() && disrupted.isEmpty()) {
            return missing;
        }
        Map<String, List<MissingJobSet>> byCluster = new TreeMap<>();
        missing.forEach(m -> byCluster.computeIfAbsent(m.cluster(), c -> new ArrayList<>()).add(m));
        disrupted.keySet().forEach(c -> byCluster.putIfAbsent(c, List.of()));
        Map<String, Integer> running = byCluster.isEmpty() ? Map.of() : clusterWorkloads.placedCounts();
        List<MissingJobSet> goAhead = new ArrayList<>();
        byCluster.forEach((cluster, lacking) -> {
            Optional<Disruption> disruption = Optional.ofNullable(disrupted.get(cluster));
            int placed = running.getOrDefault(cluster, 0);
            if (disruption.isPresent() && disruption.get().confirmedBy().isPresent()) {
                log.warn("cluster {}: {} confirmed the disruption; requeueing the {} workloads whose JobSets are"
                        + " missing", cluster, disruption.get().confirmedBy().get(), lacking.size());
                disruptions.clear(cluster);
                goAhead.addAll(lacking);
            } else if (!tooMany(lacking.size(), placed)) {
                disruption.ifPresent(d -> {
                    log.info("cluster {}: no longer disrupted; its FULL report lacks {} of {} running JobSets", cluster,
                            lacking.size(), placed);
                    disruptions.clear(cluster);
                });
                goAhead.addAll(lacking);
            } else if (disruption.isEmpty()) {
                Instant reportAt = lacking.get(0).fullReportAt();
                disruptions.mark(cluster, now, reportAt, lacking.size(), placed);
                metrics.clusterDisrupted(cluster);
                log.warn("cluster {} is disrupted: its FULL report at {} lacks {} of its {} running JobSets (more than"
                        + " {}%); their requeues are held until a later FULL report lacks them too or an Ops or Admin"
                        + " user confirms (POST /api/v1/clusters/{}/disruption/confirm)", cluster, reportAt,
                        lacking.size(), placed, disruptionPercent, cluster);
            } else if (lacking.get(0).fullReportAt().isAfter(disruption.get().reportAt())) {
                log.warn("cluster {}: a later FULL report ({}) lacks {} of {} running JobSets too; the disruption is"
                        + " confirmed and they are requeued", cluster, lacking.get(0).fullReportAt(), lacking.size(),
                        placed);
                disruptions.clear(cluster);
                goAhead.addAll(lacking);
            }
        });
        return goAhead;
    }

    /** More than the share, and at least the minimum: Kubernetes' rule for a zone in full disruption, as a count. */
    private boolean tooMany(int lacking, int running) {
        return lacking >= disruptionMinimum && lacking * 100L > (long) disruptionPercent * running;
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
