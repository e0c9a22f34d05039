package dev.platform.scheduler.preemption;

import dev.platform.scheduler.web.KeysetCursor;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import tools.jackson.databind.json.JsonMapper;

import java.sql.Timestamp;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The append-only preemption history. */
@Repository
public class PreemptionStore {

    private final RowMapper<PreemptionEvent> EVENT = (rs, i) -> new PreemptionEvent(
            rs.getLong("id"), rs.getTimestamp("at").toInstant(), rs.getString("reason"), rs.getString("message"),
            new PreemptionEvent.Party(rs.getString("preemptor_namespace"), rs.getString("preemptor_name"),
                    rs.getObject("preemptor_uid", UUID.class), rs.getString("preemptor_cluster_queue"),
                    rs.getInt("preemptor_priority")),
            new PreemptionEvent.Party(rs.getString("victim_namespace"), rs.getString("victim_name"),
                    rs.getObject("victim_uid", UUID.class), rs.getString("victim_cluster_queue"),
                    rs.getInt("victim_priority")),
            lostWork(rs.getString("lost_work")));

    private final JdbcTemplate jdbcTemplate;
    private final JdbcClient jdbc;
    private final JsonMapper json;

    public PreemptionStore(JdbcTemplate jdbcTemplate, JsonMapper json) {
        this.jdbcTemplate = jdbcTemplate;
        this.jdbc = JdbcClient.create(jdbcTemplate);
        this.json = json;
    }

    private LostWork lostWork(String text) {
        return text == null ? null : json.readValue(text, LostWork.class);
    }

    /** Appends events in one batch, inside the caller's decision transaction, stamped with its leader epoch. */
    public void append(List<PreemptionEvent> events, long epoch) {
        if (events.isEmpty()) {
            return;
        }
        jdbcTemplate.batchUpdate("""
                        INSERT INTO preemption_event (at, reason, message,
                            preemptor_uid, preemptor_namespace, preemptor_name, preemptor_cluster_queue, preemptor_priority,
                            victim_uid, victim_namespace, victim_name, victim_cluster_queue, victim_priority, epoch,
                            lost_work)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb)""",
                events.stream().map(e -> new Object[]{Timestamp.from(e.at()), e.reason(), e.message(),
                        e.preemptor().uid(), e.preemptor().namespace(), e.preemptor().name(),
                        e.preemptor().clusterQueue(), e.preemptor().priority(),
                        e.victim().uid(), e.victim().namespace(), e.victim().name(),
                        e.victim().clusterQueue(), e.victim().priority(), epoch,
                        e.lostWork() == null ? null : json.writeValueAsString(e.lostWork())}).toList());
    }

    /**
     * The preemptions a workload took part in, as preemptor or victim, newest first; the two uid
     * indexes answer it with a bitmap OR.
     */
    public List<PreemptionEvent> involving(UUID uid, int limit) {
        return jdbc.sql("""
                        SELECT * FROM preemption_event WHERE preemptor_uid = :uid OR victim_uid = :uid
                        ORDER BY at DESC, id DESC LIMIT :limit""")
                .param("uid", uid).param("limit", limit).query(EVENT).list();
    }

    /** One page, newest first, strictly after {@code cursor}; keyset on (at, id) so deep pages cost the same. */
    public List<PreemptionEvent> page(PreemptionFilter filter, KeysetCursor<Long> cursor, int limit) {
        StringBuilder common = new StringBuilder();
        Map<String, Object> params = new HashMap<>();
        if (filter.namespaces() != null) {
            common.append(" AND (victim_namespace = ANY(:allowed) OR preemptor_namespace = ANY(:allowed))");
            params.put("allowed", filter.namespaces().toArray(String[]::new));
        }
        if (filter.reason() != null) {
            common.append(" AND reason = :reason");
            params.put("reason", filter.reason());
        }
        if (filter.since() != null) {
            common.append(" AND at >= :since");
            params.put("since", Timestamp.from(filter.since()));
        }
        if (filter.until() != null) {
            common.append(" AND at < :until");
            params.put("until", Timestamp.from(filter.until()));
        }
        if (cursor != null) {
            common.append(" AND (at, id) < (:cursorAt, :cursorId)");
            params.put("cursorAt", Timestamp.from(cursor.at()));
            params.put("cursorId", cursor.key());
        }
        params.put("limit", limit);
        String order = " ORDER BY at DESC, id DESC LIMIT :limit";
        // "victim or preemptor" filters are a union of two ordered index scans, each stopping at
        // the page size, rather than an OR that would collect and sort every match.
        String side;
        if (filter.clusterQueue() != null) {
            params.put("cq", filter.clusterQueue());
            side = "cluster_queue = :cq";
            if (filter.namespace() != null) {
                common.append(" AND (victim_namespace = :ns OR preemptor_namespace = :ns)");
                params.put("ns", filter.namespace());
            }
        } else if (filter.namespace() != null) {
            params.put("ns", filter.namespace());
            side = "namespace = :ns";
        } else {
            return jdbc.sql("SELECT * FROM preemption_event WHERE true" + common + order).params(params)
                    .query(EVENT).list();
        }
        String sql = "SELECT * FROM ((SELECT * FROM preemption_event WHERE victim_" + side + common + order + ")"
                + " UNION (SELECT * FROM preemption_event WHERE preemptor_" + side + common + order + ")) both_sides"
                + order;
        return jdbc.sql(sql).params(params).query(EVENT).list();
    }
}
