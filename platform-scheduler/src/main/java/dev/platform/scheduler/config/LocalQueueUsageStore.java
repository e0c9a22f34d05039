package dev.platform.scheduler.config;

import dev.platform.scheduler.core.LocalQueueUsage;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.sql.Timestamp;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What admission fair sharing remembers of each LocalQueue (table {@code local_queue_usage}): its consumed resources
 * in milli-units, their last update, and the score the leader orders by. The leader writes what changed; every
 * replica reads.
 */
@Repository
public class LocalQueueUsageStore {

    private static final TypeReference<Map<String, Double>> CONSUMED = new TypeReference<>() {
    };

    private final JdbcClient jdbc;
    private final JsonMapper json;

    LocalQueueUsageStore(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** Every LocalQueue's stored usage. */
    public List<LocalQueueUsage> all() {
        return jdbc.sql("SELECT namespace, local_queue, consumed_resources::text, last_update FROM local_queue_usage")
                .query((rs, i) -> new LocalQueueUsage(rs.getString(1), rs.getString(2),
                        json.readValue(rs.getString(3), CONSUMED), rs.getTimestamp(4).toInstant()))
                .list();
    }

    /**
     * Upserts {@code usages} in one statement over arrays; the usage of a LocalQueue deleted meanwhile is skipped
     * (the join), as its row went with it.
     */
    public void write(Collection<LocalQueueUsage> usages) {
        if (usages.isEmpty()) {
            return;
        }
        int n = usages.size();
        String[] namespaces = new String[n];
        String[] names = new String[n];
        String[] consumed = new String[n];
        Timestamp[] updated = new Timestamp[n];
        Double[] scores = new Double[n];
        int i = 0;
        for (LocalQueueUsage u : usages) {
            namespaces[i] = u.namespace();
            names[i] = u.name();
            consumed[i] = json.writeValueAsString(u.consumedResources());
            updated[i] = Timestamp.from(u.lastUpdate());
            scores[i] = Double.isNaN(u.score()) ? null : u.score();
            i++;
        }
        jdbc.sql("""
                INSERT INTO local_queue_usage (namespace, local_queue, consumed_resources, last_update, score)
                SELECT u.namespace, u.name, u.consumed::jsonb, u.updated, u.score
                FROM unnest(?::text[], ?::text[], ?::text[], ?::timestamptz[], ?::float8[])
                     AS u (namespace, name, consumed, updated, score)
                JOIN local_queue l ON l.namespace = u.namespace AND l.name = u.name
                ON CONFLICT (namespace, local_queue) DO UPDATE
                SET consumed_resources = EXCLUDED.consumed_resources, last_update = EXCLUDED.last_update,
                    score = EXCLUDED.score""")
                .params(namespaces, names, consumed, updated, scores).update();
    }

    /** Admission fair sharing is off: no stored score orders anything (the consumed resources stay). */
    public void forgetScores() {
        jdbc.sql("UPDATE local_queue_usage SET score = NULL WHERE score IS NOT NULL").update();
    }
}
