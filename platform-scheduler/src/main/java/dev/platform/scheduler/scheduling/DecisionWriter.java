package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.PendingReason;
import dev.platform.scheduler.core.PodSetAssignment;
import dev.platform.scheduler.core.Workload;
import dev.platform.api.agent.CommandPayload;
import dev.platform.scheduler.cluster.AgentCommandStore;
import dev.platform.scheduler.core.placement.SlicePlacement;
import dev.platform.scheduler.preemption.PreemptionEvent;
import dev.platform.scheduler.preemption.PreemptionStore;
import dev.platform.scheduler.workload.Quantities;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStatus;
import dev.platform.scheduler.workload.WorkloadStore;
import dev.platform.scheduler.workload.WorkloadStore.NewEvent;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.interceptor.TransactionAspectSupport;
import tools.jackson.databind.json.JsonMapper;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Commits one cycle's decisions in one transaction (design §2): workload states, admissions,
 * quota rows, conditions, preemption events. Fenced by the leader epoch; every workload update is
 * guarded by its version, and the ones that lost a race are reported back so the loop can undo
 * them in its state.
 */
@Component
class DecisionWriter {

    private final JdbcClient jdbc;
    private final JdbcTemplate jdbcTemplate;
    private final WorkloadStore workloads;
    private final PreemptionStore preemptions;
    private final JsonMapper json;
    private final Clock clock;
    private final AgentCommandStore commands;
    private final EpochFence fence;
    private final Evictions evictions;

    DecisionWriter(JdbcTemplate jdbcTemplate, WorkloadStore workloads, PreemptionStore preemptions, JsonMapper json,
                   Clock clock, AgentCommandStore commands, EpochFence fence, Evictions evictions) {
        this.evictions = evictions;
        this.commands = commands;
        this.fence = fence;
        this.jdbcTemplate = jdbcTemplate;
        this.jdbc = JdbcClient.create(jdbcTemplate);
        this.workloads = workloads;
        this.preemptions = preemptions;
        this.json = json;
        this.clock = clock;
    }

    /** Where an admitted workload goes: its pools and the flavor whose node labels its pods get. */
    record Placed(SlicePlacement.Placement placement, String flavor, Map<String, String> nodeLabels) {
    }

    /** What landed: new versions of the rows written, and the decisions that lost a race. */
    record Outcome(Map<String, Long> newVersions, List<Decision.Admit> rejectedAdmissions,
                   List<String> rejectedEvictions, Instant at) {
    }

    /** Thrown when another scheduler has taken leadership since this one's epoch. */
    static final class LeadershipLost extends RuntimeException {
        LeadershipLost(long mine, Long current) {
            super("leader epoch " + mine + " is no longer current (now " + current + ")");
        }
    }

    @Transactional
    public Outcome commit(CycleResult result, Map<String, Placed> placements, long epoch,
                          Map<String, Long> versions) {
        fence.check(epoch);
        workloads.lockChanges();
        Instant now = clock.instant();
        Map<String, Long> newVersions = new HashMap<>();
        List<NewEvent> events = new ArrayList<>();

        List<Decision.Admit> rejected = admit(result.admitted(), placements, versions, now, epoch, newVersions, events);
        List<String> rejectedEvictions = new ArrayList<>();
        evict(result.preempted().stream().map(p -> new Evictions.Eviction(p.workload().uid(),
                versions.getOrDefault(p.workload().uid(), -1L), "Preempted", p.message(), p.reason().name()))
                .toList(), now, newVersions, events, rejectedEvictions);
        evict(result.evicted().stream().map(e -> new Evictions.Eviction(e.workload().uid(),
                versions.getOrDefault(e.workload().uid(), -1L), stopReason(e.message()), e.message(), null))
                .toList(), now, newVersions, events, rejectedEvictions);
        preemptions.append(result.preempted().stream()
                .filter(p -> !rejectedEvictions.contains(p.workload().uid()))
                .map(p -> new PreemptionEvent(0, now, p.reason().name(), p.message(),
                        party(p.preemptor(), p.preemptorClusterQueue()), party(p.workload(), p.victimClusterQueue())))
                .toList(), epoch);
        pending(result.pending(), now, events);
        workloads.appendEvents(events);
        return new Outcome(newVersions, rejected, rejectedEvictions, now);
    }

    private List<Decision.Admit> admit(List<Decision.Admit> admits, Map<String, Placed> placements,
                                       Map<String, Long> versions, Instant now, long epoch,
                                       Map<String, Long> newVersions, List<NewEvent> events) {
        if (admits.isEmpty()) {
            return List.of();
        }
        UUID[] uids = new UUID[admits.size()];
        String[] queues = new String[admits.size()];
        String[] admissions = new String[admits.size()];
        String[] clusters = new String[admits.size()];
        Long[] expected = new Long[admits.size()];
        for (int i = 0; i < admits.size(); i++) {
            Decision.Admit a = admits.get(i);
            uids[i] = UUID.fromString(a.workload().uid());
            queues[i] = a.admission().clusterQueue();
            Placed placed = placements.get(a.workload().uid());
            admissions[i] = json.writeValueAsString(CoreMapping.admission(a.admission(),
                    placed == null ? Map.of() : NodePoolPlacement.poolNames(placed.placement())));
            clusters[i] = placed == null ? null : placed.placement().cluster();
            expected[i] = versions.getOrDefault(a.workload().uid(), -1L);
        }
        Map<String, Long> landed = new HashMap<>();
        jdbc.sql("""
                UPDATE workload w
                SET state = 'Admitted', cluster_queue = d.cq, admission = d.admission::jsonb, admitted_at = :now,
                    cluster = d.cluster, admitted_epoch = :epoch, pending_reason = NULL, pending_message = NULL, version = w.version + 1,
                    change_seq = nextval('workload_change_seq')
                FROM unnest(:uids::uuid[], :queues::text[], :admissions::text[], :clusters::text[],
                            :versions::bigint[]) AS d(uid, cq, admission, cluster, version)
                WHERE w.uid = d.uid AND w.state = 'Pending' AND w.version = d.version
                RETURNING w.uid, w.version""")
                .param("now", Timestamp.from(now)).param("epoch", epoch).param("uids", uids).param("queues", queues)
                .param("admissions", admissions).param("clusters", clusters).param("versions", expected)
                .query((rs, i) -> Map.entry(rs.getString(1), rs.getLong(2)))
                .list().forEach(e -> landed.put(e.getKey(), e.getValue()));
        newVersions.putAll(landed);

        List<Object[]> usage = new ArrayList<>();
        List<Decision.Admit> rejected = new ArrayList<>();
        for (Decision.Admit a : admits) {
            String uid = a.workload().uid();
            if (!landed.containsKey(uid)) {
                rejected.add(a);
                continue;
            }
            Map<String, Long> byFlavorResource = new HashMap<>();
            for (PodSetAssignment ps : a.admission().podSetAssignments()) {
                ps.resourceUsage().forEach((resource, milli) ->
                        byFlavorResource.merge(ps.flavors().get(resource) + "\u0000" + resource, milli, Long::sum));
            }
            byFlavorResource.forEach((key, milli) -> {
                String[] parts = key.split("\u0000", 2);
                usage.add(new Object[]{UUID.fromString(uid), a.admission().clusterQueue(), parts[0], parts[1],
                        Quantities.value(milli)});
            });
            String queue = a.admission().clusterQueue();
            events.add(new NewEvent(UUID.fromString(uid), now, "QuotaReserved", "True", "QuotaReserved",
                    "Quota reserved in ClusterQueue " + queue));
            events.add(new NewEvent(UUID.fromString(uid), now, "Admitted", "True", "Admitted",
                    "The workload is admitted"));
        }
        jdbcTemplate.batchUpdate("""
                INSERT INTO workload_usage (workload_uid, cluster_queue, flavor, resource, amount)
                VALUES (?, ?, ?, ?, ?)""", usage);
        startInClusters(landed.keySet(), placements);
        return rejected;
    }

    /** START commands for admissions placed in a cluster, in the decision's transaction (outbox). */
    private void startInClusters(java.util.Set<String> landed, Map<String, Placed> placements) {
        List<UUID> placedUids = landed.stream().filter(placements::containsKey).map(UUID::fromString).toList();
        if (placedUids.isEmpty()) {
            return;
        }
        Map<UUID, String> clusters = new HashMap<>();
        placedUids.forEach(uid -> clusters.put(uid, placements.get(uid.toString()).placement().cluster()));
        commands.deleteElsewhere(clusters);
        commands.enqueueStarts(jdbc.sql("""
                        SELECT uid, namespace, name, priority_class_name, manifest::text FROM workload
                        WHERE uid = ANY(:uids) ORDER BY queue_timestamp, uid""")
                .param("uids", placedUids.toArray(UUID[]::new))
                .query((rs, i) -> {
                    UUID uid = rs.getObject(1, UUID.class);
                    Placed placed = placements.get(uid.toString());
                    return new AgentCommandStore.NewStart(placed.placement().cluster(), uid, rs.getString(2),
                            rs.getString(3), new CommandPayload(json.readTree(rs.getString(5)), rs.getString(4),
                            placed.placement().allPools().stream().map(DecisionWriter::poolName).toList(),
                            placed.nodeLabels(), placed.flavor()));
                })
                .list());
    }

    /**
     * Places a workload admitted while no cluster was connected (quota-only) once one is: its
     * admission gains node pools and a START command goes to the agent. Returns the new version,
     * or null when the workload changed meanwhile.
     */
    @Transactional
    public Long placeAdmitted(long epoch, WorkloadRow row, Placed placed) {
        fence.check(epoch);
        workloads.lockChanges();
        Map<String, List<String>> pools = NodePoolPlacement.poolNames(placed.placement());
        WorkloadStatus.Admission admission = new WorkloadStatus.Admission(row.admission().clusterQueue(),
                row.admission().podSetAssignments().stream().map(a -> new WorkloadStatus.PodSetAssignment(a.name(),
                        a.count(), a.flavors(), a.resourceUsage(), pools.getOrDefault(a.name(), List.of()))).toList());
        Long version = jdbc.sql("""
                        UPDATE workload SET admission = ?::jsonb, cluster = ?, version = version + 1,
                               change_seq = nextval('workload_change_seq')
                        WHERE uid = ? AND version = ? AND state = 'Admitted' AND cluster IS NULL RETURNING version""")
                .params(json.writeValueAsString(admission), placed.placement().cluster(), row.uid(), row.version())
                .query(Long.class).optional().orElse(null);
        if (version != null) {
            startInClusters(java.util.Set.of(row.uid().toString()), Map.of(row.uid().toString(), placed));
        }
        return version;
    }

    /** A priority-only admission that landed, with the new versions of the victims evicted for it. */
    record PriorityOnlyAdmission(long version, Map<String, Long> victimVersions) {
    }

    /**
     * Admits a priority-only workload (no queue, no quota) onto the pools found for it and starts
     * it, evicting {@code victims} (lower-priority holders of those pools, reason
     * {@code PriorityPreemption}) in the same transaction. Empty, with nothing written, when the
     * workload or a victim changed meanwhile.
     */
    @Transactional
    public Optional<PriorityOnlyAdmission> admitPriorityOnly(long epoch, WorkloadRow row,
                                                             SlicePlacement.Placement placement,
                                                             List<WorkloadRow> victims) {
        fence.check(epoch);
        workloads.lockChanges();
        Instant now = clock.instant();
        List<NewEvent> events = new ArrayList<>();
        String message = "Preempted to accommodate a workload (UID: " + row.uid() + ") due to prioritization in "
                + "priority-only mode (no queue name); preemptor path: " + queuePath(row.clusterQueue());
        Map<String, Long> evicted = evictions.evict(victims.stream().map(v -> new Evictions.Eviction(v.uid().toString(),
                v.version(), "Preempted", message + "; preemptee path: " + queuePath(v.clusterQueue()),
                "PriorityPreemption")).toList(), now, events);
        if (evicted.size() < victims.size()) {
            TransactionAspectSupport.currentTransactionStatus().setRollbackOnly();
            return Optional.empty();
        }
        Map<String, List<String>> pools = NodePoolPlacement.poolNames(placement);
        WorkloadStatus.Admission admission = new WorkloadStatus.Admission(null, row.podSets().stream()
                .map(ps -> {
                    Map<String, String> usage = new java.util.TreeMap<>();
                    ps.requests().forEach((resource, q) -> usage.put(resource,
                            Quantities.format(q.milliValue() * ps.count())));
                    return new WorkloadStatus.PodSetAssignment(ps.name(), ps.count(), Map.of(), usage,
                            pools.getOrDefault(ps.name(), List.of()));
                }).toList());
        Long version = jdbc.sql("""
                        UPDATE workload SET state = 'Admitted', admission = ?::jsonb, cluster = ?, admitted_at = ?,
                               admitted_epoch = ?, pending_reason = NULL, pending_message = NULL,
                               version = version + 1, change_seq = nextval('workload_change_seq')
                        WHERE uid = ? AND version = ? AND state = 'Pending' RETURNING version""")
                .params(json.writeValueAsString(admission), placement.cluster(), Timestamp.from(now), epoch,
                        row.uid(), row.version())
                .query(Long.class).optional().orElse(null);
        if (version == null) {
            TransactionAspectSupport.currentTransactionStatus().setRollbackOnly();
            return Optional.empty();
        }
        preemptions.append(victims.stream().map(v -> new PreemptionEvent(0, now, "PriorityPreemption",
                message + "; preemptee path: " + queuePath(v.clusterQueue()), party(row), party(v))).toList(), epoch);
        events.add(new NewEvent(row.uid(), now, "Admitted", "True", "PriorityOnly",
                "No queue name: placed by priority on " + String.join(", ", placement.allPools())
                        + (victims.isEmpty() ? "" : " after preempting " + victims.stream()
                        .map(v -> v.namespace() + "/" + v.name()).collect(java.util.stream.Collectors.joining(", ")))));
        workloads.appendEvents(events);
        startInClusters(java.util.Set.of(row.uid().toString()),
                Map.of(row.uid().toString(), new Placed(placement, null, Map.of())));
        return Optional.of(new PriorityOnlyAdmission(version, evicted));
    }

    /**
     * Records why priority-only workloads wait, in one statement; a condition is appended only for
     * those whose message changed.
     */
    @Transactional
    public void waitingPriorityOnly(Map<UUID, String> messages) {
        UUID[] uids = messages.keySet().toArray(UUID[]::new);
        String[] reasons = new String[uids.length];
        java.util.Arrays.fill(reasons, PendingReason.WaitingForNodePool.name());
        String[] texts = java.util.Arrays.stream(uids).map(messages::get).toArray(String[]::new);
        workloads.appendEvents(recordPending(uids, reasons, texts, "Admitted", clock.instant()));
    }

    private static String queuePath(String clusterQueue) {
        return clusterQueue == null ? "(no queue)" : "/" + clusterQueue;
    }

    private static PreemptionEvent.Party party(WorkloadRow row) {
        return new PreemptionEvent.Party(row.namespace(), row.name(), row.uid().toString(), row.clusterQueue(),
                row.priority());
    }

    static String poolName(String poolKey) {
        return poolKey.substring(poolKey.indexOf('/') + 1);
    }

    /** Evicts in one statement; what lost a race (changed meanwhile) is added to {@code rejected}. */
    private void evict(List<Evictions.Eviction> evictions, Instant now, Map<String, Long> newVersions,
                       List<NewEvent> events, List<String> rejected) {
        Map<String, Long> landed = this.evictions.evict(evictions, now, events);
        newVersions.putAll(landed);
        evictions.stream().map(Evictions.Eviction::uid).filter(uid -> !landed.containsKey(uid)).forEach(rejected::add);
    }

    /** Records why workloads wait; a condition is appended only when the reason or message changed. */
    private void pending(List<Decision.Pending> pending, Instant now, List<NewEvent> events) {
        UUID[] uids = pending.stream().map(p -> UUID.fromString(p.workload().uid())).toArray(UUID[]::new);
        String[] reasons = pending.stream().map(p -> p.reason().name()).toArray(String[]::new);
        String[] messages = pending.stream().map(Decision.Pending::message).toArray(String[]::new);
        events.addAll(recordPending(uids, reasons, messages, "QuotaReserved", now));
    }

    /**
     * Sets why Pending workloads wait, in one statement; returns a {@code condition}=False event for
     * each whose reason or message changed (an unchanged one is not repeated in its timeline).
     */
    private List<NewEvent> recordPending(UUID[] uids, String[] reasons, String[] messages, String condition,
                                         Instant now) {
        if (uids.length == 0) {
            return List.of();
        }
        return jdbc.sql("""
                        UPDATE workload w SET pending_reason = d.reason, pending_message = d.message
                        FROM unnest(:uids::uuid[], :reasons::text[], :messages::text[]) AS d(uid, reason, message)
                        WHERE w.uid = d.uid AND w.state = 'Pending'
                          AND (w.pending_reason IS DISTINCT FROM d.reason OR w.pending_message IS DISTINCT FROM d.message)
                        RETURNING w.uid, d.reason, d.message""")
                .param("uids", uids).param("reasons", reasons).param("messages", messages)
                .query((rs, i) -> new NewEvent(rs.getObject(1, UUID.class), now, condition, "False",
                        rs.getString(2), rs.getString(3)))
                .list();
    }

    private static PreemptionEvent.Party party(Workload workload, String clusterQueue) {
        return new PreemptionEvent.Party(workload.namespace(), workload.name(), workload.uid(), clusterQueue,
                workload.priority());
    }

    private static String stopReason(String message) {
        return message != null && message.contains("LocalQueue") ? "LocalQueueStopped" : "ClusterQueueStopped";
    }
}
