package dev.platform.scheduler.cluster;

import dev.platform.api.agent.AdoptionSubmission;
import dev.platform.scheduler.workload.WorkloadOrigins;
import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodePoolReport;
import dev.platform.api.agent.ReportKind;
import dev.platform.api.agent.WorkloadPhase;
import dev.platform.api.agent.WorkloadStatusReport;
import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.FieldValidation;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.api.manifest.ManifestRejectedException;
import dev.platform.scheduler.cluster.ClusterInventoryStore.LastReport;
import dev.platform.scheduler.cluster.ClusterInventoryStore.StoredPool;
import dev.platform.scheduler.core.placement.NodePool;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.workload.WorkloadRunStates;
import dev.platform.scheduler.workload.WorkloadRunStates.Observation;
import dev.platform.scheduler.workload.WorkloadService;
import dev.platform.scheduler.workload.WorkloadService.WorkloadsChanged;
import dev.platform.scheduler.workload.WorkloadStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Applies agent reports (docs/agent.md): the cluster's inventory, the run state of its workloads
 * and Kueue-style submissions made in the cluster. Inventory and run states are one transaction
 * per report; each submission is its own, after it, so a bad manifest costs only itself.
 */
@Service
public class AgentReportService {

    private static final Logger log = LoggerFactory.getLogger(AgentReportService.class);
    /** Phases of a JobSet that has ended: its workload's checkpoint no longer moves. */
    private static final Set<WorkloadPhase> ENDED = EnumSet.of(WorkloadPhase.SUCCEEDED, WorkloadPhase.FAILED,
            WorkloadPhase.DELETED);
    static final String ADOPTION_KEY_PREFIX = "adopted:";

    private final ClusterInventoryStore inventory;
    private final StrayJobSets strays;
    private final WorkloadRunStates runStates;
    private final WorkloadService workloads;
    private final WorkloadStore store;
    private final ManifestParser parser;
    private final JsonMapper json;
    private final TransactionTemplate transactions;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final Duration agentLiveness;
    private final WorkloadOrigins origins;

    AgentReportService(ClusterInventoryStore inventory, StrayJobSets strays, WorkloadRunStates runStates,
                       WorkloadService workloads, WorkloadStore store,
                       ManifestParser parser, JsonMapper json, TransactionTemplate transactions,
                       ApplicationEventPublisher events, Clock clock, AgentsProperties agents,
                       WorkloadOrigins origins) {
        this.agentLiveness = agents.agentLiveness();
        this.origins = origins;
        this.inventory = inventory;
        this.strays = strays;
        this.runStates = runStates;
        this.workloads = workloads;
        this.store = store;
        this.parser = parser;
        this.json = json;
        this.transactions = transactions;
        this.events = events;
        this.clock = clock;
    }

    /** The answer to a report: whether it was applied (false: an old or repeated one) and the submissions refused. */
    public record ReportOutcome(String cluster, long sequence, boolean applied,
                                List<RejectedSubmission> rejectedSubmissions) {
    }

    /** A submission that could not become a workload, and why. */
    public record RejectedSubmission(String namespace, String name, String jobSetUid, String message) {
    }

    /** What one report's transaction changed, acted upon after its commit. */
    private record Applied(boolean applied, List<NodePoolHealthChanged> healthChanges, boolean workloadsFinished) {
        static final Applied IGNORED = new Applied(false, List.of(), false);
    }

    /**
     * @param instance the agent instance that sends it ({@link dev.platform.api.agent.AgentProtocol#INSTANCE_HEADER});
     *                 null from an agent that names none
     * @throws Refusal 409 for a DELTA the scheduler has no basis for (no FULL report from
     *                      this agent, or a report missed in between): the agent sends FULL next; 409
     *                      {@link dev.platform.api.agent.AgentProtocol#ANOTHER_AGENT_TITLE} while another agent
     *                      instance speaks for the cluster ({@link ClusterVoice})
     */
    public ReportOutcome apply(String cluster, String instance, AgentReport report) {
        Applied applied = transactions.execute(tx -> applyInTransaction(cluster, instance, report));
        if (!applied.applied()) {
            return new ReportOutcome(cluster, report.sequence(), false, List.of());
        }
        // The scheduling loop takes a turn on either: a pool's health may free or break placements, a finish frees quota.
        applied.healthChanges().forEach(events::publishEvent);
        if (applied.workloadsFinished()) {
            events.publishEvent(new WorkloadsChanged());
        }
        return new ReportOutcome(cluster, report.sequence(), true, adopt(cluster, report.submissions()));
    }

    /**
     * Commands go only to the agent instance that speaks for the cluster (its FULL report accepted), so two agents
     * never carry out the same commands.
     *
     * @throws Refusal 409 {@link dev.platform.api.agent.AgentProtocol#ANOTHER_AGENT_TITLE} for any other instance
     */
    public void requireSpeaker(String cluster, String instance) {
        ClusterVoice voice = inventory.voice(cluster);
        if (!voice.isSpeaker(instance)) {
            throw voice.refusal(cluster, instance, clock.instant(), agentLiveness);
        }
    }

    private Applied applyInTransaction(String cluster, String instance, AgentReport report) {
        boolean full = report.kind() == ReportKind.FULL;
        if (full) {
            inventory.createIfAbsent(cluster);
        }
        Optional<LastReport> last = inventory.lock(cluster);
        Instant now = clock.instant();
        if (!heard(cluster, ClusterVoice.speaker(instance, report.agentId()), report, now)) {
            return Applied.IGNORED;
        }
        if (!accept(cluster, report, last.filter(l -> l.agentId() != null))) {
            return Applied.IGNORED;
        }
        inventory.recordReport(cluster, report.agentId(), report.sequence(), report.sentAt(), now, full);
        List<NodePoolHealthChanged> changes = applyPools(cluster, report, full, now);
        boolean finished = applyWorkloads(cluster, report, full, now);
        return new Applied(true, changes, finished);
    }

    /**
     * Whether the report comes from the instance that speaks for the cluster, or may take over: none speaks or the
     * one that did is silent, and this is a FULL report. A report saying its agent no longer leads gives the place
     * up (and changes nothing else).
     */
    private boolean heard(String cluster, String speaker, AgentReport report, Instant now) {
        ClusterVoice voice = inventory.voice(cluster);
        if (!report.leader()) {
            if (voice.isSpeaker(speaker)) {
                inventory.speaks(cluster, null);
                log.info("cluster {}: agent instance {} no longer leads and gave up speaking for the cluster", cluster,
                        speaker);
            }
            return false;
        }
        if (voice.isSpeaker(speaker)) {
            return true;
        }
        if (!voice.mayReport(speaker, now, agentLiveness)) {
            log.warn("cluster {}: report {} of agent instance {} refused: agent instance {} speaks for the cluster"
                    + " (last report at {})", cluster, report.sequence(), speaker, voice.instance(),
                    voice.lastReportAt());
            throw voice.refusal(cluster, speaker, now, agentLiveness);
        }
        if (report.kind() != ReportKind.FULL) {
            throw Refusal.conflict("agent instance " + speaker + " does not speak for cluster " + cluster
                    + " yet; send a FULL report", List.of());
        }
        inventory.speaks(cluster, speaker);
        if (voice.instance() != null) {
            log.info("cluster {}: agent instance {} speaks for the cluster, after {} (last report at {})", cluster,
                    speaker, voice.instance(), voice.lastReportAt());
        }
        return true;
    }

    /**
     * A FULL report is applied unless it repeats one already applied: same agent, sequence not
     * above the last, and not stamped later (a restarted agent process keeps its id but counts
     * from 1 again). A DELTA needs a FULL report of the same agent and the very next sequence.
     */
    private static boolean accept(String cluster, AgentReport report, Optional<LastReport> last) {
        boolean sameAgent = last.isPresent() && last.get().agentId().equals(report.agentId());
        boolean notNewer = sameAgent && report.sequence() <= last.get().sequence();
        if (report.kind() == ReportKind.FULL) {
            boolean laterProcess = sameAgent && report.sentAt() != null && last.get().sentAt() != null
                    && report.sentAt().isAfter(last.get().sentAt());
            return !notNewer || laterProcess;
        }
        if (!sameAgent) {
            throw Refusal.conflict("no FULL report of cluster " + cluster + " from agent " + report.agentId()
                    + (last.isPresent() ? " (the last FULL report came from " + last.get().agentId() + ")" : "")
                    + "; send a FULL report", List.of());
        }
        if (notNewer) {
            return false;
        }
        if (report.sequence() != last.get().sequence() + 1) {
            throw Refusal.conflict("report " + report.sequence() + " of agent " + report.agentId()
                    + " follows report " + last.get().sequence() + ": a report is missing; send a FULL report",
                    List.of());
        }
        return true;
    }

    private List<NodePoolHealthChanged> applyPools(String cluster, AgentReport report, boolean full, Instant now) {
        Map<String, StoredPool> before = inventory.pools(cluster);
        List<NodePoolHealthChanged> changes = new ArrayList<>();
        Set<String> reported = new HashSet<>();
        for (NodePoolReport pool : report.nodePools()) {
            reported.add(pool.name());
            StoredPool old = before.get(pool.name());
            NodePool.Health health = ClusterInventoryStore.health(pool.state());
            Instant unhealthySince = pool.state() != HealthState.UNHEALTHY ? null
                    : old != null && old.unhealthySince() != null ? old.unhealthySince() : now;
            inventory.putPool(cluster, pool, unhealthySince, now);
            if (old == null || old.health() != health) {
                changes.add(new NodePoolHealthChanged(cluster, pool.name(), old == null ? null : old.health(), health,
                        pool.reasons()));
            }
        }
        List<String> removed = full
                ? before.keySet().stream().filter(name -> !reported.contains(name)).toList()
                : report.removedNodePools();
        for (String gone : inventory.deletePools(cluster, removed)) {
            changes.add(new NodePoolHealthChanged(cluster, gone, before.get(gone).health(), null, List.of()));
        }
        return changes;
    }

    /**
     * Stores where workloads run, moves their state and their last checkpoints; true when any finished (quota freed).
     */
    private boolean applyWorkloads(String cluster, AgentReport report, boolean full, Instant now) {
        Map<UUID, WorkloadStatusReport> statuses = new LinkedHashMap<>();
        for (WorkloadStatusReport status : report.workloads()) {
            uid(status.workloadUid()).ifPresent(uid -> statuses.put(uid, status));
        }
        if (full) {
            Map<UUID, WorkloadStatusReport> active = new LinkedHashMap<>();
            statuses.forEach((uid, status) -> {
                if (status.phase() == WorkloadPhase.RUNNING || status.phase() == WorkloadPhase.PENDING) {
                    active.put(uid, status);
                }
            });
            strays.handle(cluster, active, now);
        }
        Map<UUID, Optional<String>> known = store.knownWorkloads(statuses.keySet());
        Set<String> pools = inventory.pools(cluster).keySet();
        List<Observation> observations = new ArrayList<>();
        List<UUID> deleted = new ArrayList<>();
        Map<UUID, WorkloadStatusReport> present = new LinkedHashMap<>();
        Map<UUID, Instant> checkpoints = new LinkedHashMap<>();
        statuses.forEach((uid, status) -> {
            if (!known.containsKey(uid)) {
                log.info("cluster {} reports workload {} ({}/{}) that the platform does not know: ignored", cluster,
                        uid, status.namespace(), status.jobSetName());
                return;
            }
            Optional<String> placedIn = known.get(uid);
            if (placedIn.isPresent() && !placedIn.get().equals(cluster)) {
                log.warn("cluster {} reports workload {} ({}/{}) as {}, but it is placed in cluster {}: ignored",
                        cluster, uid, status.namespace(), status.jobSetName(), status.phase(), placedIn.get());
                return;
            }
            // where a JobSet runs decides whether it runs where it was placed; where an ended one ran does not
            List<String> unknownPools = status.phase() != WorkloadPhase.RUNNING ? List.of()
                    : status.nodePools().stream().filter(p -> !pools.contains(p)).toList();
            if (!unknownPools.isEmpty()) {
                log.warn("cluster {} reports workload {} ({}/{}) on node pools it has not reported, {}: ignored",
                        cluster, uid, status.namespace(), status.jobSetName(), unknownPools);
                return;
            }
            if (status.phase() == WorkloadPhase.DELETED) {
                deleted.add(uid);
            } else {
                present.put(uid, status);
            }
            observation(cluster, uid, status, placedIn.isPresent()).ifPresent(observations::add);
            // an ended JobSet's checkpoint changes nothing (its workload keeps its own); a FULL report lists thousands
            if (status.lastCheckpoint() != null && !ENDED.contains(status.phase())) {
                checkpoints.put(uid, status.lastCheckpoint());
            }
        });
        inventory.deleteWorkloads(cluster, deleted);
        if (full) {
            inventory.replaceWorkloads(cluster, present, now);
        } else {
            inventory.putWorkloads(cluster, present, now);
        }
        runStates.recordCheckpoints(checkpoints);
        return !runStates.apply(observations, now).finished().isEmpty();
    }

    /**
     * What a JobSet's status says of its workload. A completed JobSet of a workload placed nowhere was stopped by an
     * eviction as it completed: it ends the workload only if that eviction's STOP went to this cluster; any other
     * outcome reported of it is older than the eviction.
     */
    private static Optional<Observation> observation(String cluster, UUID uid, WorkloadStatusReport status,
                                                     boolean placed) {
        String jobSet = "JobSet " + status.namespace() + "/" + status.jobSetName();
        if (!placed && status.phase() == WorkloadPhase.SUCCEEDED) {
            return Optional.of(Observation.completedUnplaced(uid, cluster,
                    jobSet + " completed: " + status.podsSucceeded() + " pod(s) succeeded"));
        }
        return switch (status.phase()) {
            case RUNNING -> Optional.of(Observation.running(uid, cluster, status.nodePools(),
                    jobSet + " is running: " + status.podsRunning() + " pod(s) running",
                    status.podsReadyOrSucceeded()));
            case PENDING -> Optional.of(Observation.waiting(uid, cluster, status.podsReadyOrSucceeded()));
            case SUCCEEDED -> Optional.of(Observation.ended(uid, WorkloadRunStates.Outcome.SUCCEEDED,
                    jobSet + " completed: " + status.podsSucceeded() + " pod(s) succeeded"));
            case FAILED -> Optional.of(Observation.ended(uid, WorkloadRunStates.Outcome.FAILED,
                    jobSet + " failed: " + status.podsFailed() + " pod(s) failed"));
            case SUSPENDED, DELETED -> Optional.empty();
        };
    }

    private static Optional<UUID> uid(String value) {
        try {
            return value == null ? Optional.empty() : Optional.of(UUID.fromString(value));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Kueue-style submissions: each becomes a Pending workload, at most once per JobSet uid (the
     * idempotency key {@code adopted:<jobSetUid>}).
     */
    private List<RejectedSubmission> adopt(String cluster, List<AdoptionSubmission> submissions) {
        List<RejectedSubmission> rejected = new ArrayList<>();
        for (AdoptionSubmission submission : submissions) {
            try {
                // The cluster's API server has checked its fields already, maybe against a newer JobSet schema.
                DecodedDocument document = parser.parseWorkload(json.writeValueAsBytes(submission.manifest()),
                        ManifestParser.Format.JSON, submission.namespace(), FieldValidation.Ignore);
                // Created in the cluster, not through the platform: nobody here submitted it.
                WorkloadService.Submitted submitted = workloads.submit(document,
                        ADOPTION_KEY_PREFIX + submission.jobSetUid(), null);
                // its agent writes the platform's decisions about it as Events on that JobSet
                origins.record(submitted.workload().uid(), cluster, submission.jobSetUid());
                if (submitted.created()) {
                    log.info("cluster {}: JobSet {}/{} (uid {}) adopted as workload {}", cluster,
                            submission.namespace(), submission.name(), submission.jobSetUid(),
                            submitted.workload().uid());
                }
            } catch (ManifestRejectedException e) {
                rejected.add(rejection(cluster, submission, e.errors().stream()
                        .map(error -> error.path().isEmpty() ? error.message() : error.path() + ": " + error.message())
                        .reduce((a, b) -> a + "; " + b).orElse("invalid manifest")));
            } catch (Refusal e) {
                rejected.add(rejection(cluster, submission, e.getMessage()));
            }
        }
        return rejected;
    }

    private static RejectedSubmission rejection(String cluster, AdoptionSubmission submission, String message) {
        log.warn("cluster {}: {} {}/{} (uid {}) not adopted: {}", cluster,
                submission.manifest() == null ? "JobSet" : submission.manifest().path("kind").asString("JobSet"),
                submission.namespace(), submission.name(), submission.jobSetUid(), message);
        return new RejectedSubmission(submission.namespace(), submission.name(), submission.jobSetUid(), message);
    }
}
