package dev.platform.scheduler.hotswap;

import dev.platform.api.agent.NodeHealthReason;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.sql.Array;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/** The hotswap history: append an event when decided, then stamp its later phases. */
@Repository
public class HotswapStore {

    private static final TypeReference<List<HotswapEvent.Party>> PARTIES = new TypeReference<>() {
    };

    /**
     * What an in-progress hotswap waits for: the evictions of its victims not finished yet, each
     * with what the agent last said of it (a PodDisruptionBudget refusing, pods still going).
     */
    private static final String WAITING_FOR = """
            CASE WHEN h.outcome = 'InProgress' THEN (
                SELECT string_agg('eviction of ' || c.namespace || '/' || c.name || ': '
                                  || coalesce(nullif(c.result_message, ''), 'not reported by the agent yet'), '; '
                                  ORDER BY c.seq)
                FROM jsonb_array_elements(h.victims) v
                JOIN agent_command c ON c.workload_uid = (v ->> 'uid')::uuid AND c.type = 'STOP'
                WHERE c.state IN ('Pending', 'Delivered')) END AS waiting_for""";

    /** Events with the disrupted workload's priority, which the event row does not copy, and what they wait for. */
    private static final String SELECT = "SELECT h.*, coalesce((SELECT w.priority FROM workload w"
            + " WHERE w.uid = h.disrupted_uid), 0) AS disrupted_priority, " + WAITING_FOR + " FROM hotswap_event h";

    private final JdbcClient jdbc;
    private final JsonMapper json;

    public HotswapStore(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** Records a decided hotswap in the caller's transaction; returns its id. */
    public long record(HotswapEvent event) {
        return jdbc.sql("""
                        INSERT INTO hotswap_event (cluster, node_pool, nodes, reason, disrupted_uid, disrupted_namespace,
                            disrupted_name, victims, replacement_pools, outcome, detected_at, decided_at,
                            evictions_done_at, running_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?) RETURNING id""")
                .params(event.cluster(), event.nodePool(), event.nodes().toArray(String[]::new), event.reason(),
                        event.disrupted().uid(), event.disrupted().namespace(), event.disrupted().name(),
                        json.writeValueAsString(event.victims()), event.replacementPools().toArray(String[]::new),
                        event.outcome(), Timestamp.from(event.detectedAt()), ts(event.decidedAt()),
                        ts(event.evictionsDoneAt()), ts(event.runningAt()))
                .query(Long.class).single();
    }

    /**
     * Stamps "evictions done" on in-progress events whose every victim's STOP command has a final
     * result; returns the events stamped.
     */
    public List<HotswapEvent> evictionsDone(UUID victim, Instant at) {
        List<Long> ids = jdbc.sql("""
                        UPDATE hotswap_event h SET evictions_done_at = :at
                        WHERE h.evictions_done_at IS NULL AND h.outcome = 'InProgress'
                          AND h.victims @> jsonb_build_array(jsonb_build_object('uid', CAST(:victim AS text)))
                          AND NOT EXISTS (
                            SELECT 1 FROM jsonb_array_elements(h.victims) v
                            JOIN agent_command c ON c.workload_uid = (v ->> 'uid')::uuid AND c.type = 'STOP'
                            WHERE c.state NOT IN ('Succeeded', 'Failed', 'Refused'))
                        RETURNING h.id""")
                .param("at", Timestamp.from(at)).param("victim", victim.toString())
                .query(Long.class).list();
        return ids.stream().map(this::find).flatMap(Optional::stream).toList();
    }

    /** Stamps "running" on the in-progress event of a disrupted workload that runs again. */
    public Optional<HotswapEvent> running(UUID disrupted, Instant at) {
        return jdbc.sql("""
                        UPDATE hotswap_event SET running_at = :at, outcome = 'Recovered',
                               evictions_done_at = coalesce(evictions_done_at, :at)
                        WHERE disrupted_uid = :uid AND outcome = 'InProgress' RETURNING id""")
                .param("at", Timestamp.from(at)).param("uid", disrupted)
                .query(Long.class).optional().flatMap(this::find);
    }

    /**
     * An in-progress hotswap whose victims' evictions are refused: the victims (namespace/name) whose STOP the
     * agent still retries after refusals, or gave up, and the node pools their pods still hold as the cluster
     * last reported.
     */
    public record BlockedHotswap(long id, UUID disrupted, String cluster, String nodePool, List<String> nodes,
                                 List<NodeHealthReason> reasons, Instant detectedAt, List<UUID> blockedVictims,
                                 List<String> blockedNames, List<String> blockedPools) {
    }

    /**
     * The hotswaps in progress, decided at {@code decidedBefore} or earlier, with a victim whose eviction the agent
     * reported refused and still retries (its latest STOP unfinished with a progress message), or gave up (its
     * latest STOP failed): they wait for evictions a PodDisruptionBudget may never allow.
     */
    public List<BlockedHotswap> blockedSince(Instant decidedBefore) {
        return jdbc.sql("""
                        SELECT h.id, h.disrupted_uid, h.cluster, h.node_pool, h.nodes, h.reason, h.detected_at,
                               array_agg(DISTINCT c.workload_uid) AS blocked,
                               array_agg(DISTINCT c.namespace || '/' || c.name) AS blocked_names,
                               (SELECT coalesce(array_agg(DISTINCT p), '{}') FROM cluster_workload cw,
                                       unnest(cw.node_pools) p
                                WHERE cw.cluster = h.cluster
                                  AND cw.workload_uid = ANY(array_agg(c.workload_uid))) AS blocked_pools
                        FROM hotswap_event h
                        CROSS JOIN LATERAL jsonb_array_elements(h.victims) v
                        JOIN agent_command c ON c.workload_uid = (v ->> 'uid')::uuid AND c.type = 'STOP'
                             AND c.seq = (SELECT max(l.seq) FROM agent_command l
                                          WHERE l.workload_uid = c.workload_uid AND l.type = 'STOP')
                        WHERE h.outcome = 'InProgress' AND h.decided_at <= ?
                          AND ((c.state IN ('Pending', 'Delivered') AND c.result_message IS NOT NULL)
                               OR c.state = 'Failed')
                        GROUP BY h.id
                        ORDER BY h.id""")
                .param(Timestamp.from(decidedBefore))
                .query((rs, i) -> new BlockedHotswap(rs.getLong("id"), rs.getObject("disrupted_uid", UUID.class),
                        rs.getString("cluster"), rs.getString("node_pool"), strings(rs.getArray("nodes")),
                        healthReasons(rs.getString("reason")), instant(rs.getTimestamp("detected_at")),
                        Arrays.asList((UUID[]) rs.getArray("blocked").getArray()),
                        strings(rs.getArray("blocked_names")), strings(rs.getArray("blocked_pools"))))
                .list();
    }

    /**
     * The hotswap of {@code disrupted} in progress ends Superseded: a later hotswap of the same workload (new
     * victims chosen past blocked ones) took over.
     */
    public void superseded(UUID disrupted) {
        jdbc.sql("UPDATE hotswap_event SET outcome = 'Superseded' WHERE disrupted_uid = ? AND outcome = 'InProgress'")
                .param(disrupted).update();
    }

    /** The hotswap of {@code disrupted} in progress ends Requeued: its restart failed and it waits in its queue again. */
    public void requeued(UUID disrupted) {
        jdbc.sql("UPDATE hotswap_event SET outcome = 'Requeued' WHERE disrupted_uid = ? AND outcome = 'InProgress'")
                .param(disrupted).update();
    }

    public Optional<HotswapEvent> find(long id) {
        return jdbc.sql(SELECT + " WHERE h.id = ?").param(id).query(this::event).optional();
    }

    /**
     * A page, newest first, after the cursor (keyset on detected_at, id); filters optional, {@code namespaces}
     * (the disrupted workload's) empty for every namespace.
     */
    public List<HotswapEvent> page(String cluster, UUID disrupted, Optional<Set<String>> namespaces, Instant beforeAt,
                                   Long beforeId, int limit) {
        StringBuilder sql = new StringBuilder(SELECT + " WHERE true");
        java.util.Map<String, Object> params = new java.util.HashMap<>();
        namespaces.ifPresent(visible -> {
            sql.append(" AND h.disrupted_namespace = ANY(:namespaces)");
            params.put("namespaces", visible.toArray(String[]::new));
        });
        if (cluster != null) {
            sql.append(" AND h.cluster = :cluster");
            params.put("cluster", cluster);
        }
        if (disrupted != null) {
            sql.append(" AND h.disrupted_uid = :disrupted");
            params.put("disrupted", disrupted);
        }
        if (beforeAt != null) {
            sql.append(" AND (h.detected_at, h.id) < (:beforeAt, :beforeId)");
            params.put("beforeAt", Timestamp.from(beforeAt));
            params.put("beforeId", beforeId);
        }
        sql.append(" ORDER BY h.detected_at DESC, h.id DESC LIMIT :limit");
        params.put("limit", limit);
        return jdbc.sql(sql.toString()).params(params).query(this::event).list();
    }

    private HotswapEvent event(java.sql.ResultSet rs, int row) throws SQLException {
        return new HotswapEvent(rs.getLong("id"), rs.getString("cluster"), rs.getString("node_pool"),
                strings(rs.getArray("nodes")), rs.getString("reason"),
                new HotswapEvent.Party(rs.getString("disrupted_namespace"), rs.getString("disrupted_name"),
                        rs.getObject("disrupted_uid", UUID.class), rs.getInt("disrupted_priority")),
                json.readValue(rs.getString("victims"), PARTIES), strings(rs.getArray("replacement_pools")),
                rs.getString("outcome"), instant(rs.getTimestamp("detected_at")), instant(rs.getTimestamp("decided_at")),
                instant(rs.getTimestamp("evictions_done_at")), instant(rs.getTimestamp("running_at")),
                rs.getString("waiting_for"));
    }

    /**
     * The node health reasons of a stored event's reason, which {@code WorkloadDecision.Hotswap.Disruption.reason()}
     * wrote as their names joined by ", " (a note after "; " when victims were chosen again); a name this version
     * does not know is left out rather than stop the loop over an old row.
     */
    static List<NodeHealthReason> healthReasons(String reason) {
        String names = reason.split("; ", 2)[0];
        Set<String> known = Arrays.stream(NodeHealthReason.values()).map(Enum::name).collect(Collectors.toSet());
        return Arrays.stream(names.split(", ")).filter(known::contains).map(NodeHealthReason::valueOf).toList();
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }

    private static Timestamp ts(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
