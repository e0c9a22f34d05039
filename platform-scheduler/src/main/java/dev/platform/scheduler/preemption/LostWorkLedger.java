package dev.platform.scheduler.preemption;

import dev.platform.api.reason.EvictionReason;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import dev.platform.scheduler.web.KeysetCursor;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The work every eviction threw away, preemption or not, appended in the eviction's transaction: what a team's
 * totals sum. The preemption audit keeps its own copy of a preemption's lost work, beside who preempted whom.
 */
@Repository
public class LostWorkLedger {

    /**
     * One evicted workload's lost work. {@code eviction} is Kueue's eviction reason ({@code Preempted},
     * {@code PodsReadyTimeout}, ...); {@code reason} is what the counters name: the preemption reason of a preemption,
     * else the eviction reason.
     */
    public record Entry(Instant at, UUID workload, String namespace, String name, String clusterQueue,
                        EvictionReason eviction, String reason, LostWork lostWork) {
    }

    /** An entry as kept: its id orders entries of the same instant. */
    public record Recorded(long id, Instant at, UUID workload, String namespace, String name, String clusterQueue,
                           String eviction, String reason, LostWork lostWork) {
    }

    /**
     * Filters of the listing, each optional: {@code reason} is the preemption reason of a preemption, else the
     * eviction reason; {@code namespaces}, when not null, what the caller may see (the namespaces a team lead leads).
     */
    public record Filter(String namespace, String clusterQueue, String reason, Instant since, Instant until,
                         Set<String> namespaces) {
    }

    /** Resource-seconds of one resource lost over the last day and the last week. */
    public record Total(String resource, double lastDay, double lastWeek) {
    }

    /** A team's totals: the namespaces' rows of the week, each resource's seconds summed over the day and the week. */
    static final String TOTALS = """
            SELECT r.key AS resource,
                   coalesce(sum(r.value::float8) FILTER (WHERE l.at > :dayAgo), 0) AS last_day,
                   sum(r.value::float8) AS last_week
            FROM lost_work l CROSS JOIN LATERAL jsonb_each_text(l.resource_seconds) AS r(key, value)
            WHERE l.namespace = ANY(:namespaces) AND l.at > :weekAgo AND l.at <= :now
            GROUP BY r.key ORDER BY r.key""";

    private static final TypeReference<Map<String, Double>> RESOURCE_SECONDS = new TypeReference<>() {
    };

    private final JdbcTemplate jdbcTemplate;
    private final JdbcClient jdbc;
    private final JsonMapper json;

    public LostWorkLedger(JdbcTemplate jdbcTemplate, JsonMapper json) {
        this.jdbcTemplate = jdbcTemplate;
        this.jdbc = JdbcClient.create(jdbcTemplate);
        this.json = json;
    }

    /** Appends the entries in one batch, inside the caller's transaction. */
    public void append(List<Entry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        jdbcTemplate.batchUpdate("""
                        INSERT INTO lost_work (at, workload_uid, namespace, name, cluster_queue, eviction, reason, since,
                            resource_seconds)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb)""",
                entries.stream().map(e -> new Object[]{Timestamp.from(e.at()), e.workload(), e.namespace(), e.name(),
                        e.clusterQueue(), e.eviction().name(), e.reason(), Timestamp.from(e.lostWork().since()),
                        json.writeValueAsString(e.lostWork().resourceSeconds())}).toList());
    }

    /**
     * One page of entries, newest first, strictly after {@code cursor}: keyset on (at, id) over the time index, or the
     * namespace's or ClusterQueue's index when filtered by one, so a deep page costs what the first does.
     */
    public List<Recorded> page(Filter filter, KeysetCursor<Long> cursor, int limit) {
        StringBuilder where = new StringBuilder("true");
        Map<String, Object> params = new HashMap<>();
        if (filter.namespaces() != null) {
            where.append(" AND namespace = ANY(:allowed)");
            params.put("allowed", filter.namespaces().toArray(String[]::new));
        }
        if (filter.namespace() != null) {
            where.append(" AND namespace = :namespace");
            params.put("namespace", filter.namespace());
        }
        if (filter.clusterQueue() != null) {
            where.append(" AND cluster_queue = :clusterQueue");
            params.put("clusterQueue", filter.clusterQueue());
        }
        if (filter.reason() != null) {
            where.append(" AND reason = :reason");
            params.put("reason", filter.reason());
        }
        if (filter.since() != null) {
            where.append(" AND at >= :since");
            params.put("since", Timestamp.from(filter.since()));
        }
        if (filter.until() != null) {
            where.append(" AND at < :until");
            params.put("until", Timestamp.from(filter.until()));
        }
        if (cursor != null) {
            where.append(" AND (at, id) < (:cursorAt, :cursorId)");
            params.put("cursorAt", Timestamp.from(cursor.at()));
            params.put("cursorId", cursor.key());
        }
        params.put("limit", limit);
        return jdbc.sql("SELECT * FROM lost_work WHERE " + where + " ORDER BY at DESC, id DESC LIMIT :limit")
                .params(params)
                .query((rs, i) -> new Recorded(rs.getLong("id"), rs.getTimestamp("at").toInstant(),
                        rs.getObject("workload_uid", UUID.class), rs.getString("namespace"), rs.getString("name"),
                        rs.getString("cluster_queue"), rs.getString("eviction"), rs.getString("reason"),
                        new LostWork(rs.getTimestamp("since").toInstant(),
                                json.readValue(rs.getString("resource_seconds"), RESOURCE_SECONDS))))
                .list();
    }

    /**
     * The work the workloads of {@code namespaces} lost, per resource, in the day and the week before {@code now}: one
     * statement, whose namespace-and-time index reads only the week's rows of those namespaces.
     */
    public List<Total> totals(Collection<String> namespaces, Instant now) {
        if (namespaces.isEmpty()) {
            return List.of();
        }
        return jdbc.sql(TOTALS)
                .param("namespaces", namespaces.toArray(String[]::new))
                .param("dayAgo", Timestamp.from(now.minus(Duration.ofDays(1))))
                .param("weekAgo", Timestamp.from(now.minus(Duration.ofDays(7))))
                .param("now", Timestamp.from(now))
                .query((rs, i) -> new Total(rs.getString("resource"), rs.getDouble("last_day"),
                        rs.getDouble("last_week")))
                .list();
    }
}
