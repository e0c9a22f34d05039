package dev.platform.scheduler.kubernetes.storage;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/** Server-side apply's field ownership, per object, in the transaction-less write after each change. */
@Component
public class ManagedFieldsStore {

    private static final TypeReference<List<Entry>> ENTRIES = new TypeReference<>() {
    };

    private final JdbcClient jdbc;
    private final JsonMapper json;

    ManagedFieldsStore(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** One manager's fields, set by Apply or by Update, in one API version, last at {@code time}. */
    public record Entry(String manager, String operation, String apiVersion, Instant time, Set<String> fields) {
    }

    /** The entries of the object with uid {@code uid}; none when there are none or they are of an earlier object. */
    public List<Entry> find(String kind, String namespace, String name, String uid) {
        return jdbc.sql("SELECT uid, entries::text FROM managed_fields WHERE kind = ? AND namespace = ? AND name = ?")
                .params(kind, namespace == null ? "" : namespace, name)
                .query((rs, n) -> uid.equals(rs.getString(1)) ? json.readValue(rs.getString(2), ENTRIES)
                        : List.<Entry>of())
                .optional().orElse(List.of());
    }

    public void save(String kind, String namespace, String name, String uid, List<Entry> entries) {
        jdbc.sql("""
                        INSERT INTO managed_fields (kind, namespace, name, uid, entries) VALUES (?, ?, ?, ?, ?::jsonb)
                        ON CONFLICT (kind, namespace, name) DO UPDATE SET uid = EXCLUDED.uid, entries = EXCLUDED.entries""")
                .params(kind, namespace == null ? "" : namespace, name, uid, json.writeValueAsString(entries))
                .update();
    }

    public void delete(String kind, String namespace, String name) {
        jdbc.sql("DELETE FROM managed_fields WHERE kind = ? AND namespace = ? AND name = ?")
                .params(kind, namespace == null ? "" : namespace, name).update();
    }
}
