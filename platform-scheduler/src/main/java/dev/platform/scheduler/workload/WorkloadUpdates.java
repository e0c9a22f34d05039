package dev.platform.scheduler.workload;

import dev.platform.api.manifest.PreemptionAnnotations;
import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.FieldValidation;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.api.manifest.WorkloadManifest;
import dev.platform.scheduler.refusal.Refusal;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What may change of a submitted workload, as in Kueue: its {@code spec.active} (deactivated: evicted if it holds
 * quota, kept out of its queue until activated again), its annotation {@code kueue.x-k8s.io/priority-boost} (added
 * to its priority), the platform's {@code platform.dev/last-checkpoint} (where its lost work counts from) and its label {@code kueue.x-k8s.io/priority-class} (Kueue
 * keeps that label mutable so that priority can be raised or lowered; the queue is re-sorted at once and the next
 * preemption search sees the new value). Everything else of a workload is immutable: delete and resubmit.
 * <p>
 * A change arrives as a JSON merge patch (RFC 7386) of the workload ({@code PATCH}), as the stop and resume
 * actions, or as a changed manifest applied with {@code POST /api/v1/manifests}. Each is merged into the stored
 * manifest, which is decoded again (so it is validated as a submission is), and recorded with the actor in the
 * workload's timeline.
 */
@Service
public class WorkloadUpdates {

    static final String PRIORITY_CLASS_LABEL = "kueue.x-k8s.io/priority-class";
    /**
     * The annotations a submitted workload may change: its priority boost, its last checkpoint, and kubectl's record
     * of what it applied (which {@code kubectl apply} adds to an object created otherwise, before it manages it).
     */
    private static final List<String> MUTABLE_ANNOTATIONS = List.of(PreemptionAnnotations.PRIORITY_BOOST,
            PreemptionAnnotations.LAST_CHECKPOINT, "kubectl.kubernetes.io/last-applied-configuration");
    private static final TypeReference<Map<String, Object>> TREE = new TypeReference<>() {
    };

    private final WorkloadStore store;
    private final WorkloadTransitions transitions;
    private final PriorityResolver priorities;
    private final ManifestParser parser;
    private final JsonMapper json;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final AllowedPriorityClasses allowedPriorityClasses;

    public WorkloadUpdates(WorkloadStore store, WorkloadTransitions transitions, PriorityResolver priorities,
                           ManifestParser parser, JsonMapper json, ApplicationEventPublisher events, Clock clock,
                           AllowedPriorityClasses allowedPriorityClasses) {
        this.allowedPriorityClasses = allowedPriorityClasses;
        this.store = store;
        this.transitions = transitions;
        this.priorities = priorities;
        this.parser = parser;
        this.json = json;
        this.events = events;
        this.clock = clock;
    }

    /** Sets {@code spec.active} (kueuectl stop workload / resume workload). */
    @Transactional
    public WorkloadRow setActive(String namespace, String name, boolean active, String actor) {
        return patch(namespace, name, Map.of("spec", Map.of("active", active)), actor);
    }

    /** Applies a JSON merge patch; only {@code spec.active} and the priority-class label may change. */
    @Transactional
    public WorkloadRow patch(String namespace, String name, byte[] body, String actor) {
        Map<String, Object> patch;
        try {
            patch = json.readValue(new String(body, StandardCharsets.UTF_8), TREE);
        } catch (JacksonException e) {
            throw new Refusal(Refusal.Kind.Malformed, "Bad Request",
                    "the body is not a JSON merge patch (a JSON object): " + e.getOriginalMessage(), List.of());
        }
        if (patch == null) {
            throw new Refusal(Refusal.Kind.Malformed, "Bad Request", "the body must be a JSON object", List.of());
        }
        return patch(namespace, name, patch, actor);
    }

    private WorkloadRow patch(String namespace, String name, Map<String, Object> patch, String actor) {
        requireMutableOnly(patch);
        transitions.lockChanges();
        WorkloadRow row = store.find(namespace, name)
                .orElseThrow(() -> Refusal.notFound("Workload", namespace + "/" + name));
        Map<String, Object> stored = json.readValue(store.manifest(row.uid()).orElseThrow(), TREE);
        Object active = child(patch, "spec").get("active");
        Map<String, Object> manifestPatch = patch;
        if (!Kind.WORKLOAD.manifestName().equals(row.kind())) {
            // A JobSet or Job has no spec.active: it is the Workload's field, kept beside the manifest.
            manifestPatch = withoutActive(patch);
        }
        Map<String, Object> merged = asObject(mergePatch(stored, manifestPatch));
        change(row, stored, merged, active == null ? row.lifecycle().active() : (Boolean) active, actor);
        return store.find(namespace, name).orElseThrow();
    }

    /**
     * A workload applied again with a different manifest: when only its mutable fields differ, they are changed
     * and true is returned; false when anything else differs.
     */
    boolean applyChanged(WorkloadRow row, WorkloadManifest posted, String actor) {
        Map<String, Object> stored = json.readValue(store.manifest(row.uid()).orElseThrow(), TREE);
        Map<String, Object> candidate = asObject(mergePatch(stored, mutableFieldsOf(posted, stored)));
        if (!store.sameObject(json.writeValueAsString(candidate), json.writeValueAsString(posted.manifest()))) {
            return false;
        }
        change(row, stored, candidate, posted.active(), actor);
        return true;
    }

    /**
     * The first field in which a posted manifest differs from the stored one once its mutable fields are taken, as a
     * path such as {@code spec.replicatedJobs} (two levels deep at most); {@code spec} when only their spelling
     * differs.
     */
    String changedField(WorkloadRow row, WorkloadManifest posted) {
        Map<String, Object> stored = json.readValue(store.manifest(row.uid()).orElseThrow(), TREE);
        Map<String, Object> candidate = asObject(mergePatch(stored, mutableFieldsOf(posted, stored)));
        Map<String, Object> wanted = json.readValue(json.writeValueAsString(posted.manifest()), TREE);
        Map<String, Object> was = child(candidate, "spec");
        Map<String, Object> is = child(wanted, "spec");
        Set<String> keys = new TreeSet<>(was.keySet());
        keys.addAll(is.keySet());
        for (String key : keys) {
            if (!Objects.equals(was.get(key), is.get(key))) {
                return "spec." + key;
            }
        }
        for (String key : List.of("labels", "annotations")) {
            if (!Objects.equals(child(child(candidate, "metadata"), key), child(child(wanted, "metadata"), key))) {
                return "metadata." + key;
            }
        }
        return "spec";
    }

    private void change(WorkloadRow row, Map<String, Object> stored, Map<String, Object> manifest,
                        boolean requestedActive, String actor) {
        if (row.state().isTerminal()) {
            throw Refusal.conflict("Workload \"" + row.namespace() + "/" + row.name() + "\" has "
                    + row.state().name().toLowerCase() + "; it can no longer change", List.of());
        }
        byte[] text = json.writeValueAsBytes(manifest);
        // Its fields were checked when it was submitted, as that submission asked; the change touches known ones only.
        DecodedDocument decoded = parser.parseWorkload(text, ManifestParser.Format.JSON, row.namespace(),
                FieldValidation.Ignore);
        WorkloadManifest changed = (WorkloadManifest) decoded.manifest();
        Object storedLabel = child(child(stored, "metadata"), "labels").get(PRIORITY_CLASS_LABEL);
        if (changed.workloadPriorityClassName() != null && !changed.workloadPriorityClassName().equals(storedLabel)) {
            allowedPriorityClasses.requireForLabel(row, changed.workloadPriorityClassName());
        }
        boolean active = Kind.WORKLOAD.manifestName().equals(row.kind()) ? changed.active() : requestedActive;
        if (!active && row.queueName() == null && row.state().holdsQuota()) {
            throw Refusal.conflict("Workload \"" + row.namespace() + "/" + row.name() + "\" runs without a"
                    + " queue name (priority-only mode) and cannot be deactivated while it holds node pools;"
                    + " delete it to stop it", List.of());
        }
        PriorityResolver.ResolvedPriority priority = priorities.resolve(changed);
        transitions.change(row, new WorkloadTransitions.Change(active, priority.className(), priority.value(),
                        new String(text, StandardCharsets.UTF_8),
                        PreemptionAnnotations.lastCheckpoint(changed.metadata().annotations())), clock.instant(), actor)
                .orElseThrow(() -> Refusal.conflict("Workload \"" + row.namespace() + "/" + row.name()
                        + "\" changed meanwhile; read it and try again", List.of()));
        events.publishEvent(new WorkloadService.WorkloadsChanged());
    }

    /**
     * The mutable fields of a posted manifest, as a merge patch of the stored one (a label the stored one lacks is
     * not removed, lest the patch leave an empty {@code labels} behind).
     */
    private static Map<String, Object> mutableFieldsOf(WorkloadManifest posted, Map<String, Object> stored) {
        Map<String, Object> patch = new LinkedHashMap<>();
        String label = posted.kind() == Kind.WORKLOAD && posted.metadata().labels().get(PRIORITY_CLASS_LABEL) == null
                ? null : posted.workloadPriorityClassName();
        if (label != null || child(child(stored, "metadata"), "labels").containsKey(PRIORITY_CLASS_LABEL)) {
            Map<String, Object> labels = new LinkedHashMap<>();
            labels.put(PRIORITY_CLASS_LABEL, label);
            patch.put("metadata", Map.of("labels", labels));
        }
        Map<String, Object> annotations = new LinkedHashMap<>();
        for (String key : MUTABLE_ANNOTATIONS) {
            String value = posted.metadata().annotations().get(key);
            if (value != null || child(child(stored, "metadata"), "annotations").containsKey(key)) {
                annotations.put(key, value);
            }
        }
        if (!annotations.isEmpty()) {
            Map<String, Object> metadata = new LinkedHashMap<>(child(patch, "metadata"));
            metadata.put("annotations", annotations);
            patch.put("metadata", metadata);
        }
        if (posted.kind() == Kind.WORKLOAD) {
            patch.put("spec", Map.of("active", posted.active()));
        }
        return patch;
    }

    private static void requireMutableOnly(Map<String, Object> patch) {
        for (Map.Entry<String, Object> top : patch.entrySet()) {
            switch (top.getKey()) {
                case "metadata" -> {
                    Map<String, Object> metadata = child(patch, "metadata");
                    for (String field : metadata.keySet()) {
                        if (!field.equals("labels") && !field.equals("annotations")) {
                            throw immutable("metadata." + field);
                        }
                    }
                    for (Map.Entry<String, Object> annotation : child(metadata, "annotations").entrySet()) {
                        if (!MUTABLE_ANNOTATIONS.contains(annotation.getKey())) {
                            throw immutable("metadata.annotations." + annotation.getKey());
                        }
                        if (annotation.getValue() != null && !(annotation.getValue() instanceof String)) {
                            throw invalid("metadata.annotations." + annotation.getKey(), "must be a string or null");
                        }
                    }
                    for (Map.Entry<String, Object> label : child(metadata, "labels").entrySet()) {
                        if (!label.getKey().equals(PRIORITY_CLASS_LABEL)) {
                            throw immutable("metadata.labels." + label.getKey());
                        }
                        if (label.getValue() != null && !(label.getValue() instanceof String)) {
                            throw invalid("metadata.labels." + PRIORITY_CLASS_LABEL, "must be a string or null");
                        }
                    }
                }
                case "spec" -> {
                    for (Map.Entry<String, Object> field : child(patch, "spec").entrySet()) {
                        if (!field.getKey().equals("active")) {
                            throw immutable("spec." + field.getKey());
                        }
                        if (!(field.getValue() instanceof Boolean)) {
                            throw invalid("spec.active", "must be true or false");
                        }
                    }
                }
                default -> throw immutable(top.getKey());
            }
        }
    }

    /** RFC 7386: objects merge key by key, null removes, anything else replaces. */
    static Object mergePatch(Object target, Object patch) {
        if (!(patch instanceof Map<?, ?> patchObject)) {
            return patch;
        }
        Map<String, Object> result = target instanceof Map<?, ?> targetObject
                ? new LinkedHashMap<>(asObject(targetObject)) : new LinkedHashMap<>();
        patchObject.forEach((key, value) -> {
            if (value == null) {
                result.remove(String.valueOf(key));
            } else {
                result.put(String.valueOf(key), mergePatch(result.get(String.valueOf(key)), value));
            }
        });
        return result;
    }

    private static Map<String, Object> withoutActive(Map<String, Object> patch) {
        Map<String, Object> copy = new LinkedHashMap<>(patch);
        Map<String, Object> spec = new LinkedHashMap<>(child(patch, "spec"));
        spec.remove("active");
        if (spec.isEmpty()) {
            copy.remove("spec");
        } else {
            copy.put("spec", spec);
        }
        return copy;
    }

    private static Map<String, Object> child(Map<String, Object> object, String key) {
        Object value = object.get(key);
        if (value == null) {
            return Map.of();
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw invalid(key, "must be an object");
        }
        return asObject(map);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asObject(Object value) {
        return (Map<String, Object>) value;
    }

    private static Refusal immutable(String path) {
        return invalid(path, "cannot change: only spec.active, metadata.labels." + PRIORITY_CLASS_LABEL
                + ", metadata.annotations." + PreemptionAnnotations.PRIORITY_BOOST + " and metadata.annotations."
                + PreemptionAnnotations.LAST_CHECKPOINT + " of a submitted workload can (delete it and submit again to change anything else)");
    }

    private static Refusal invalid(String path, String message) {
        return new Refusal(Refusal.Kind.Invalid, "Invalid patch", path + ": " + message,
                List.of(Map.of("document", 0, "path", path, "message", message)));
    }
}
