package dev.platform.scheduler.scheduling;

import dev.platform.api.agent.CommandType;
import dev.platform.scheduler.cluster.AgentCommandStore;
import dev.platform.scheduler.workload.WorkloadStore.NewEvent;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Taking quota away from admitted workloads, in the caller's decision transaction: preemption
 * victims of a cycle or of a hotswap, and workloads drained by a stop policy. Each is requeued
 * at its original queue timestamp (Kueue requeues evicted workloads at their position), its
 * quota rows go, its conditions say why, and a STOP command takes its pods out of its cluster.
 */
@Component
class Evictions {

    private final JdbcClient jdbc;
    private final AgentCommandStore commands;

    Evictions(JdbcClient jdbc, AgentCommandStore commands) {
        this.jdbc = jdbc;
        this.commands = commands;
    }

    /**
     * One workload to evict, if it is still at {@code expectedVersion}.
     *
     * @param reason           the Evicted condition's reason (Preempted, ClusterQueueStopped, ...)
     * @param preemptionReason the Preempted condition's reason, or null when not preempted
     */
    record Eviction(String uid, long expectedVersion, String reason, String message, String preemptionReason) {
    }

    /**
     * Evicts those still at their expected version (one statement for all) and appends their
     * conditions to {@code events}; returns the new version of each eviction that landed.
     */
    Map<String, Long> evict(List<Eviction> evictions, Instant now, List<NewEvent> events) {
        Map<String, Long> landed = new HashMap<>();
        if (evictions.isEmpty()) {
            return landed;
        }
        UUID[] uids = evictions.stream().map(e -> UUID.fromString(e.uid())).toArray(UUID[]::new);
        Long[] expected = evictions.stream().map(Eviction::expectedVersion).toArray(Long[]::new);
        List<Object[]> stops = new ArrayList<>();
        jdbc.sql("""
                UPDATE workload w
                SET state = 'Pending', admission = NULL, admitted_at = NULL, cluster = NULL, version = w.version + 1,
                    change_seq = nextval('workload_change_seq')
                FROM unnest(:uids::uuid[], :versions::bigint[]) AS d(uid, version),
                     (SELECT uid AS old_uid, cluster AS old_cluster FROM workload WHERE uid = ANY(:uids)) o
                WHERE w.uid = d.uid AND o.old_uid = w.uid AND w.state IN ('Admitted', 'Running')
                  AND w.version = d.version
                RETURNING w.uid, w.version, o.old_cluster, w.namespace, w.name""")
                .param("uids", uids).param("versions", expected)
                .query((rs, i) -> new Object[]{rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4),
                        rs.getString(5)})
                .list().forEach(r -> {
                    landed.put((String) r[0], (Long) r[1]);
                    if (r[2] != null) {
                        stops.add(r);
                    }
                });
        // The pods leave the cluster through the agent (evictions honour disruption budgets).
        stops.forEach(r -> commands.enqueue((String) r[2], CommandType.STOP, UUID.fromString((String) r[0]),
                (String) r[3], (String) r[4], null, null));
        jdbc.sql("DELETE FROM workload_usage WHERE workload_uid = ANY(:uids)")
                .param("uids", landed.keySet().stream().map(UUID::fromString).toArray(UUID[]::new)).update();
        for (Eviction e : evictions) {
            if (!landed.containsKey(e.uid())) {
                continue;
            }
            UUID id = UUID.fromString(e.uid());
            events.add(new NewEvent(id, now, "Evicted", "True", e.reason(), e.message()));
            if (e.preemptionReason() != null) {
                events.add(new NewEvent(id, now, "Preempted", "True", e.preemptionReason(), e.message()));
            }
            events.add(new NewEvent(id, now, "QuotaReserved", "False", e.reason(), "The workload was evicted"));
            events.add(new NewEvent(id, now, "Admitted", "False", e.reason(), "The workload was evicted"));
            events.add(new NewEvent(id, now, "Requeued", "True", e.reason(),
                    "Requeued at its original position after eviction"));
        }
        return landed;
    }
}
