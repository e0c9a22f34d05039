package dev.platform.scheduler.workload;

import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A workload as a Kubernetes object, as {@code kubectl get -o yaml} lays one out: {@code apiVersion}, {@code kind},
 * {@code metadata} (its fields in ObjectMeta's order, the namespace always there, so the object applied back lands
 * where it came from), {@code spec} as submitted, any other field, then {@code status}. The REST API's YAML read and
 * the console's manifest panel both write this.
 */
@Component
public class WorkloadObjects {

    /** ObjectMeta's fields in the order its schema declares them. */
    private static final List<String> METADATA_ORDER = List.of("name", "generateName", "namespace", "selfLink", "uid",
            "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
            "labels", "annotations", "ownerReferences", "finalizers", "managedFields");
    private static final List<String> TOP_LEVEL_ORDER = List.of("apiVersion", "kind", "metadata", "spec");
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    private final WorkloadStore store;
    private final JsonMapper json;

    WorkloadObjects(WorkloadStore store, JsonMapper json) {
        this.store = store;
        this.json = json;
    }

    /**
     * The manifest as submitted (with the changes made since: spec.active of a Workload, the priority-class label),
     * its namespace, uid and creation time in metadata; without status. Empty when no manifest is kept.
     */
    public Optional<Map<String, Object>> object(WorkloadRow row) {
        return store.manifest(row.uid()).map(manifest -> {
            Map<String, Object> submitted = json.readValue(manifest, OBJECT);
            Map<String, Object> metadata = new LinkedHashMap<>(submitted.get("metadata") == null ? Map.of()
                    : json.convertValue(submitted.get("metadata"), OBJECT));
            metadata.put("namespace", row.namespace());
            metadata.put("uid", row.uid().toString());
            metadata.put("creationTimestamp", row.createdAt().truncatedTo(ChronoUnit.SECONDS).toString());
            submitted.put("metadata", ordered(metadata, METADATA_ORDER));
            return ordered(submitted, TOP_LEVEL_ORDER);
        });
    }

    /** The keys named in {@code order} first, in that order, then the others as they were. */
    private static Map<String, Object> ordered(Map<String, Object> fields, List<String> order) {
        Map<String, Object> ordered = new LinkedHashMap<>();
        order.stream().filter(fields::containsKey).forEach(key -> ordered.put(key, fields.get(key)));
        fields.forEach(ordered::putIfAbsent);
        return ordered;
    }
}
