package dev.platform.scheduler.kubernetes.storage;

import dev.platform.api.identity.Caller;
import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.scheduler.config.ApplyResult;
import dev.platform.scheduler.config.ManifestApplication;
import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.kubernetes.registry.Objects;
import dev.platform.scheduler.workload.SubmissionRateLimiter;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadService;
import dev.platform.scheduler.workload.WorkloadStatus;
import dev.platform.scheduler.workload.WorkloadStatuses;
import dev.platform.scheduler.workload.WorkloadStore;
import dev.platform.scheduler.workload.WorkloadUpdates;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * JobSets and batch Jobs as the platform stores them: the manifest as submitted, with the identity the platform gave
 * it, {@code spec.suspend} while it is not admitted (as Kueue keeps a job suspended until admission) and the status
 * JobSet or the Job controller would report. Created through the same apply as {@code POST /api/v1/manifests};
 * deleted by cancelling.
 */
public final class WorkloadObjectStore implements ObjectStore {

    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    private final String kind;
    private final WorkloadStore store;
    private final WorkloadStatuses statuses;
    private final WorkloadService workloads;
    private final ManifestParser parser;
    private final ManifestApplication application;
    private final SubmissionRateLimiter rate;
    private final JsonMapper json;
    private final JobStatuses jobStatuses;

    public WorkloadObjectStore(String kind, WorkloadStores stores) {
        this.kind = kind;
        this.store = stores.store();
        this.statuses = stores.statuses();
        this.workloads = stores.workloads();
        this.parser = stores.parser();
        this.application = stores.application();
        this.rate = stores.rate();
        this.json = stores.json();
        this.jobStatuses = new JobStatuses(kind);
    }

    /** The services a workload kind's store maps onto. */
    public record WorkloadStores(WorkloadStore store, WorkloadStatuses statuses, WorkloadService workloads,
                                 WorkloadUpdates updates, ManifestParser parser, ManifestApplication application,
                                 SubmissionRateLimiter rate, JsonMapper json) {
    }

    @Override
    public Optional<Map<String, Object>> get(String namespace, String name, Caller caller) {
        return store.findLive(namespace, name).filter(row -> row.kind().equals(kind))
                .map(row -> render(List.of(row)).get(0));
    }

    @Override
    public Page list(ListQuery query, Caller caller) {
        return WorkloadPages.page(store, List.of(kind), query, caller, query.columnsOnly()
                ? rows -> render(rows, statuses.forColumns(rows)) : this::render);
    }

    @Override
    public Written create(Map<String, Object> object, WriteOptions options, Caller caller) {
        String namespace = Objects.namespace(object);
        if (store.findLive(namespace, Objects.name(object)).isPresent()) {
            throw WriteRefusal.alreadyExists();
        }
        return apply(object, options, caller);
    }

    @Override
    public Written update(Map<String, Object> object, WriteOptions options, Caller caller) {
        Optional<WorkloadRow> existing = store.findLive(Objects.namespace(object), Objects.name(object))
                .filter(row -> row.kind().equals(kind));
        if (existing.isEmpty()) {
            throw WriteRefusal.notFound();
        }
        // spec.suspend is the platform's to set (as Kueue's webhook keeps it): the stored value stands.
        Map<String, Object> stored = json.readValue(store.manifest(existing.get().uid()).orElseThrow(), OBJECT);
        Map<String, Object> spec = Objects.mapIn(object, "spec");
        Object suspend = Objects.map(stored, "spec").get("suspend");
        if (suspend == null) {
            spec.remove("suspend");
        } else {
            spec.put("suspend", suspend);
        }
        return apply(object, options, caller);
    }

    private Written apply(Map<String, Object> object, WriteOptions options, Caller caller) {
        DecodedDocument document = parser.parseWorkload(json.writeValueAsBytes(object), ManifestParser.Format.JSON,
                Objects.namespace(object), options.fieldValidation());
        if (!options.dryRun()) {
            rate.acquire(caller.name(), 1);
        }
        List<ApplyResult> results = application.apply(List.of(document), options.dryRun(), caller.name());
        List<String> warnings = results.stream().flatMap(r -> r.warnings().stream()).toList();
        if (options.dryRun()) {
            Map<String, Object> answer = Objects.copy(object);
            answer.put("metadata", Objects.withServerMetadata(Objects.map(answer, "metadata"),
                    UUID.randomUUID().toString(), 0, 1L, java.time.Instant.now()));
            return new Written(answer, warnings);
        }
        return new Written(get(Objects.namespace(object), Objects.name(object), caller).orElseThrow(), warnings);
    }

    @Override
    public Map<String, Object> delete(String namespace, String name, WriteOptions options, Caller caller) {
        Map<String, Object> last = get(namespace, name, caller).orElseThrow(WriteRefusal::notFound);
        if (!options.dryRun()) {
            workloads.cancel(namespace, name, caller.name());
        }
        return last;
    }

    /** The rows as objects, their manifests and statuses read in one query each. */
    @Override
    public boolean visibleByNamespace() {
        return true;
    }

    @Override
    public Changes changesAfter(long revision, int limit, Caller caller) {
        return WorkloadPages.changes(store, revision, limit, caller, row -> row.kind().equals(kind), this::render);
    }

    private List<Map<String, Object>> render(List<WorkloadRow> rows) {
        return render(rows, rows.isEmpty() ? List.of() : statuses.of(rows));
    }

    private List<Map<String, Object>> render(List<WorkloadRow> rows, List<WorkloadStatus> all) {
        if (rows.isEmpty()) {
            return List.of();
        }
        Map<UUID, String> manifests = store.manifests(rows.stream().map(WorkloadRow::uid).toList());
        List<Map<String, Object>> objects = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            WorkloadRow row = rows.get(i);
            Map<String, Object> object = json.readValue(manifests.get(row.uid()), OBJECT);
            // the namespace it was submitted to, which a manifest posted to a namespace's URL does not name itself
            Map<String, Object> metadata = Objects.mapIn(object, "metadata");
            metadata.put("namespace", row.namespace());
            object.put("metadata", Objects.withServerMetadata(metadata, row.uid().toString(), row.changeSeq(), 1L,
                    row.createdAt()));
            Map<String, Object> spec = Objects.mapIn(object, "spec");
            spec.put("suspend", !row.state().holdsQuota() || row.state().isTerminal());
            object.put("status", jobStatuses.of(row, all.get(i)));
            objects.add(object);
        }
        return objects;
    }
}
