package dev.platform.scheduler.config;

import dev.platform.api.manifest.Kind;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Configuration objects as their authors wrote them, with the identity Kubernetes gives each (uid, creation time,
 * generation) and the revision of their latest change: what the Kubernetes API reads back. Written by
 * {@link ConfigurationService} in the transaction of each change, whichever API made it.
 */
@Component
public class AppliedObjects {

    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };
    /** What the server sets in metadata: never kept from what a client sent. */
    private static final Set<String> SERVER_METADATA = Set.of("uid", "resourceVersion", "creationTimestamp",
            "generation", "managedFields", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds");

    /** The parts of metadata an author writes that make an object changed when they change. */
    private static final java.util.List<String> METADATA_MAPS = java.util.List.of("labels", "annotations");

    private final JdbcClient jdbc;
    private final JsonMapper json;

    AppliedObjects(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /**
     * An object as stored: {@code source} is what its author wrote (status and server-set metadata left out; empty
     * when it was made by the platform itself), {@code revision} the global revision of its latest change.
     */
    public record Applied(UUID uid, Instant createdAt, long generation, Map<String, Object> source, long revision) {
    }

    /** Every object of {@code kind}, by key; an object stored before its source was kept has a uid made from its key. */
    public Map<ObjectKey, Applied> all(Kind kind) {
        Map<ObjectKey, Applied> applied = new HashMap<>();
        jdbc.sql("""
                        SELECT a.namespace, a.name, a.uid, a.created_at, a.generation, a.object::text,
                               (SELECT max(c.revision) FROM config_audit c WHERE c.kind = a.kind
                                  AND coalesce(c.namespace, '') = a.namespace AND c.name = a.name) AS revision
                        FROM applied_object a WHERE a.kind = ?""")
                .param(kind.manifestName())
                .query((rs, n) -> Map.entry(key(rs.getString(1), rs.getString(2)), applied(rs)))
                .list().forEach(e -> applied.put(e.getKey(), e.getValue()));
        return applied;
    }

    public Optional<Applied> find(Kind kind, ObjectKey key) {
        return jdbc.sql("""
                        SELECT a.namespace, a.name, a.uid, a.created_at, a.generation, a.object::text,
                               (SELECT max(c.revision) FROM config_audit c WHERE c.kind = a.kind
                                  AND coalesce(c.namespace, '') = a.namespace AND c.name = a.name) AS revision
                        FROM applied_object a WHERE a.kind = ? AND a.namespace = ? AND a.name = ?""")
                .params(kind.manifestName(), namespace(key), key.name())
                .query((rs, n) -> applied(rs)).optional();
    }

    /** The latest revision of each object of {@code kind} that has any audited change, by key. */
    public Map<ObjectKey, Long> revisions(Kind kind) {
        Map<ObjectKey, Long> revisions = new HashMap<>();
        jdbc.sql("""
                        SELECT coalesce(namespace, ''), name, max(revision) FROM config_audit WHERE kind = ?
                        GROUP BY coalesce(namespace, ''), name""")
                .param(kind.manifestName())
                .query((rs, n) -> Map.entry(key(rs.getString(1), rs.getString(2)), rs.getLong(3)))
                .list().forEach(e -> revisions.put(e.getKey(), e.getValue()));
        return revisions;
    }

    /** One entry of the configuration change log: a change of one object at a revision. */
    public record Change(long revision, ObjectKey key, String action) {
    }

    /** The changes of {@code kind}'s objects after {@code revision}, in revision order, at most {@code limit}. */
    public List<Change> changesAfter(Kind kind, long revision, int limit) {
        return jdbc.sql("""
                        SELECT revision, coalesce(namespace, ''), name, action FROM config_audit
                        WHERE revision > ? AND kind = ? ORDER BY revision LIMIT ?""")
                .params(revision, kind.manifestName(), limit)
                .query((rs, n) -> new Change(rs.getLong(1), key(rs.getString(2), rs.getString(3)), rs.getString(4)))
                .list();
    }

    /**
     * Whether {@code source} carries the labels and annotations stored already (an absent map and an empty one are
     * the same). The spec is compared by the typed configuration; the rest of what an author wrote is kept, but a
     * change of it alone is no change: an object read back and applied again is unchanged.
     */
    boolean sameSource(Kind kind, ObjectKey key, Map<?, ?> source) {
        if (source == null) {
            return true;
        }
        Map<String, Object> stored = find(kind, key).map(Applied::source).orElse(Map.of());
        Map<String, Object> written = normalized(source);
        // A Namespace's labels are its configuration, which sameSpec compares (with the label Kubernetes adds).
        return METADATA_MAPS.stream().filter(field -> kind != Kind.NAMESPACE || !field.equals("labels"))
                .allMatch(field -> metadataMap(stored, field).equals(metadataMap(written, field)));
    }

    private static Map<?, ?> metadataMap(Map<String, Object> object, String field) {
        return object.get("metadata") instanceof Map<?, ?> metadata && metadata.get(field) instanceof Map<?, ?> map
                ? map : Map.of();
    }

    /**
     * Keeps the object as written ({@code source}, null when the platform made it: the stored source is then
     * kept as it was); a new object gets its uid and creation time, a changed spec a new generation.
     */
    void store(Kind kind, ObjectKey key, Map<?, ?> source, boolean specChanged, Instant now) {
        String object = source == null ? null : json.writeValueAsString(normalized(source));
        jdbc.sql("""
                        INSERT INTO applied_object (kind, namespace, name, uid, created_at, object)
                        VALUES (?, ?, ?, ?, ?, coalesce(?::jsonb, '{}'::jsonb))
                        ON CONFLICT (kind, namespace, name) DO UPDATE
                        SET object = coalesce(?::jsonb, applied_object.object),
                            generation = applied_object.generation + CASE WHEN ? THEN 1 ELSE 0 END""")
                .params(kind.manifestName(), namespace(key), key.name(), UUID.randomUUID(),
                        java.sql.Timestamp.from(now), object, object, specChanged)
                .update();
    }

    void delete(Kind kind, ObjectKey key) {
        jdbc.sql("DELETE FROM applied_object WHERE kind = ? AND namespace = ? AND name = ?")
                .params(kind.manifestName(), namespace(key), key.name()).update();
    }

    /** A uid for an object stored before sources were kept: the same on every read. */
    public static UUID uidOf(Kind kind, ObjectKey key) {
        return UUID.nameUUIDFromBytes((kind.manifestName() + "/" + namespace(key) + "/" + key.name())
                .getBytes(StandardCharsets.UTF_8));
    }

    private Map<String, Object> normalized(Map<?, ?> source) {
        Map<String, Object> object = new LinkedHashMap<>(json.convertValue(source, OBJECT));
        object.remove("status");
        if (object.get("metadata") instanceof Map<?, ?> metadata) {
            Map<String, Object> kept = new LinkedHashMap<>(json.convertValue(metadata, OBJECT));
            SERVER_METADATA.forEach(kept::remove);
            object.put("metadata", kept);
        }
        return object;
    }

    private Applied applied(ResultSet rs) throws SQLException {
        long revision = rs.getLong(7);
        return new Applied(rs.getObject(3, UUID.class), rs.getTimestamp(4).toInstant(), rs.getLong(5),
                json.readValue(rs.getString(6), OBJECT), rs.wasNull() ? 0 : revision);
    }

    private static ObjectKey key(String namespace, String name) {
        return new ObjectKey(namespace.isEmpty() ? null : namespace, name);
    }

    private static String namespace(ObjectKey key) {
        return key.namespace() == null ? "" : key.namespace();
    }
}
