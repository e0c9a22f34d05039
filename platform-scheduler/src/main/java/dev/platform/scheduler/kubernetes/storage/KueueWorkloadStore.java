package dev.platform.scheduler.kubernetes.storage;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.kubernetes.registry.Objects;
import dev.platform.scheduler.workload.QueueConfiguration;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStatus;
import dev.platform.scheduler.workload.WorkloadStatuses;
import dev.platform.scheduler.workload.WorkloadStore;
import dev.platform.scheduler.workload.WorkloadUpdates;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Kueue's Workload objects: one for each JobSet or Job, named as Kueue names it ({@code jobset-<name>-<hash>}) and
 * owned by it, and the Workloads submitted as such under their own names. Kueue's spec and status, and what the
 * platform adds where Kueue has no field: why it waits, its positions and the forecast, as additional status fields.
 */
public final class KueueWorkloadStore implements ObjectStore {

    private static final Map<String, String> OWNER_GROUPS = Map.of("JobSet", "jobset.x-k8s.io", "Job", "batch");
    private static final Map<String, String> OWNER_VERSIONS = Map.of("JobSet", "jobset.x-k8s.io/v1alpha2",
            "Job", "batch/v1");

    /** Kueue v1beta1's {@code priorityClassSource} values. */
    public static final String WORKLOAD_PRIORITY_CLASS_SOURCE = "kueue.x-k8s.io/workloadpriorityclass";
    public static final String POD_PRIORITY_CLASS_SOURCE = "scheduling.k8s.io/priorityclass";

    private final WorkloadStore store;
    private final WorkloadStatuses statuses;
    private final WorkloadUpdates updates;
    private final WorkloadObjectStore submitted;
    private final QueueConfiguration configuration;

    public KueueWorkloadStore(WorkloadStore store, WorkloadStatuses statuses, WorkloadUpdates updates,
                              WorkloadObjectStore submitted, QueueConfiguration configuration) {
        this.store = store;
        this.statuses = statuses;
        this.updates = updates;
        this.submitted = submitted;
        this.configuration = configuration;
    }

    /**
     * Kueue's name for the Workload of a job: its kind in lower case, its name and five hex digits of a hash of
     * kind, group, name and uid, so a job deleted and applied again has a Workload of another name.
     */
    public static String workloadName(String ownerKind, String ownerName, UUID ownerUid) {
        String prefix = ownerKind.toLowerCase() + "-" + ownerName;
        if (prefix.length() > 247) {
            prefix = prefix.substring(0, 247);
        }
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            String input = ownerKind + "\n" + OWNER_GROUPS.get(ownerKind) + "\n" + ownerName + "\n" + ownerUid;
            return prefix + "-" + HexFormat.of().formatHex(sha1.digest(input.getBytes(StandardCharsets.UTF_8)))
                    .substring(0, 5);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is a required algorithm of every Java platform", e);
        }
    }

    static String nameOf(WorkloadRow row) {
        return OWNER_GROUPS.containsKey(row.kind()) ? workloadName(row.kind(), row.name(), row.uid()) : row.name();
    }

    @Override
    public Optional<Map<String, Object>> get(String namespace, String name, Caller caller) {
        return find(namespace, name).map(row -> render(List.of(row)).get(0));
    }

    private Optional<WorkloadRow> find(String namespace, String name) {
        Optional<WorkloadRow> own = store.findLive(namespace, name).filter(r -> r.kind().equals("Workload"));
        if (own.isPresent()) {
            return own;
        }
        for (String kind : OWNER_GROUPS.keySet()) {
            String prefix = kind.toLowerCase() + "-";
            if (name.startsWith(prefix) && name.length() > prefix.length() + 6) {
                String owner = name.substring(prefix.length(), name.length() - 6);
                Optional<WorkloadRow> row = store.findLive(namespace, owner)
                        .filter(r -> r.kind().equals(kind) && nameOf(r).equals(name));
                if (row.isPresent()) {
                    return row;
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public Page list(ListQuery query, Caller caller) {
        return WorkloadPages.page(store, null, query, caller, query.columnsOnly()
                ? rows -> render(rows, statuses.forColumns(rows)) : this::render);
    }

    /** A Workload submitted as such; the Workloads of jobs are made by the platform. */
    @Override
    public Written create(Map<String, Object> object, WriteOptions options, Caller caller) {
        return submitted.create(object, options, caller);
    }

    /** Kueue's {@code spec.active} changes (kueuectl stop and resume); everything else is the platform's. */
    @Override
    public Written update(Map<String, Object> object, WriteOptions options, Caller caller) {
        WorkloadRow row = find(Objects.namespace(object), Objects.name(object)).orElseThrow(WriteRefusal::notFound);
        Object active = Objects.map(object, "spec").get("active");
        boolean wanted = active == null || Boolean.TRUE.equals(active);
        if (!options.dryRun() && wanted != row.lifecycle().active()) {
            updates.setActive(row.namespace(), row.name(), wanted, caller.name());
        }
        return new Written(get(row.namespace(), nameOf(row), caller).orElseThrow(), List.of());
    }

    @Override
    public Map<String, Object> delete(String namespace, String name, WriteOptions options, Caller caller) {
        WorkloadRow row = find(namespace, name).orElseThrow(WriteRefusal::notFound);
        return submitted.delete(row.namespace(), row.name(), options, caller);
    }

    @Override
    public boolean visibleByNamespace() {
        return true;
    }

    @Override
    public Changes changesAfter(long revision, int limit, Caller caller) {
        return WorkloadPages.changes(store, revision, limit, caller, row -> true, this::render);
    }

    private List<Map<String, Object>> render(List<WorkloadRow> rows) {
        return render(rows, rows.isEmpty() ? List.of() : statuses.of(rows));
    }

    private List<Map<String, Object>> render(List<WorkloadRow> rows, List<WorkloadStatus> all) {
        if (rows.isEmpty()) {
            return List.of();
        }
        // a handful of names a page, each looked up once for the configuration as it stands
        QueueConfiguration classes = configuration.asOfNow();
        Set<String> workloadClasses = all.stream().map(WorkloadStatus::priorityClassName)
                .filter(name -> name != null && classes.priorityValue("WorkloadPriorityClass", name).isPresent())
                .collect(Collectors.toSet());
        List<Map<String, Object>> objects = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            objects.add(workload(rows.get(i), all.get(i), workloadClasses));
        }
        return objects;
    }

    private static Map<String, Object> workload(WorkloadRow row, WorkloadStatus status, Set<String> workloadClasses) {
        boolean derived = OWNER_GROUPS.containsKey(row.kind());
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", nameOf(row));
        metadata.put("namespace", row.namespace());
        if (derived) {
            metadata.put("labels", Map.of("kueue.x-k8s.io/job-uid", row.uid().toString()));
            Map<String, Object> owner = new LinkedHashMap<>();
            owner.put("apiVersion", OWNER_VERSIONS.get(row.kind()));
            owner.put("kind", row.kind());
            owner.put("name", row.name());
            owner.put("uid", row.uid().toString());
            owner.put("controller", true);
            owner.put("blockOwnerDeletion", true);
            metadata.put("ownerReferences", List.of(owner));
        }
        String uid = derived ? UUID.nameUUIDFromBytes(("Workload/" + row.uid()).getBytes(StandardCharsets.UTF_8))
                .toString() : row.uid().toString();
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("apiVersion", "kueue.x-k8s.io/v1beta2");
        object.put("kind", "Workload");
        object.put("metadata", Objects.withServerMetadata(metadata, uid, row.changeSeq(), 1L, row.createdAt()));
        object.put("spec", spec(row, status, workloadClasses));
        object.put("status", status(status));
        return object;
    }

    /**
     * Kueue's spec in v1beta1's words: the class as {@code priorityClassName} and {@code priorityClassSource} (a
     * WorkloadPriorityClass when one of that name exists, else a pod PriorityClass), which v1beta2 reads as
     * {@code priorityClassRef}.
     */
    private static Map<String, Object> spec(WorkloadRow row, WorkloadStatus status, Set<String> workloadClasses) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("active", status.active());
        spec.put("podSets", status.podSets().stream().map(p -> {
            Map<String, Object> podSet = new LinkedHashMap<>();
            podSet.put("name", p.name());
            podSet.put("count", p.count());
            podSet.put("template", Map.of("spec", Map.of("containers", List.of(Map.of("name", p.name(),
                    "resources", Map.of("requests", p.requests()))))));
            return podSet;
        }).toList());
        if (status.priorityClassName() != null) {
            spec.put("priorityClassName", status.priorityClassName());
            spec.put("priorityClassSource", workloadClasses.contains(status.priorityClassName())
                    ? WORKLOAD_PRIORITY_CLASS_SOURCE : POD_PRIORITY_CLASS_SOURCE);
        }
        spec.put("priority", status.priority());
        if (row.queueName() != null) {
            spec.put("queueName", row.queueName());
        }
        return spec;
    }

    private static Map<String, Object> status(WorkloadStatus status) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (status.admission() != null) {
            Map<String, Object> admission = new LinkedHashMap<>();
            admission.put("clusterQueue", status.admission().clusterQueue());
            admission.put("podSetAssignments", status.admission().podSetAssignments().stream().map(a -> {
                Map<String, Object> assignment = new LinkedHashMap<>();
                assignment.put("name", a.name());
                assignment.put("flavors", a.flavors());
                assignment.put("resourceUsage", a.resourceUsage());
                assignment.put("count", a.count());
                return assignment;
            }).toList());
            out.put("admission", admission);
        }
        out.put("conditions", status.conditions().stream().map(c -> {
            Map<String, Object> condition = new LinkedHashMap<>();
            condition.put("type", c.type());
            condition.put("status", c.status());
            condition.put("lastTransitionTime", Objects.timestamp(c.lastTransitionTime()));
            condition.put("reason", c.reason());
            condition.put("message", c.message() == null ? "" : c.message());
            return condition;
        }).toList());
        if (!status.admissionChecks().isEmpty()) {
            out.put("admissionChecks", status.admissionChecks().stream().map(c -> {
                Map<String, Object> check = new LinkedHashMap<>();
                check.put("name", c.name());
                check.put("state", c.state());
                check.put("lastTransitionTime", Objects.timestamp(c.lastTransitionTime()));
                check.put("message", c.message() == null ? "" : c.message());
                return check;
            }).toList());
        }
        if (status.requeueState() != null) {
            Map<String, Object> requeue = new LinkedHashMap<>();
            requeue.put("count", status.requeueState().count());
            if (status.requeueState().requeueAt() != null) {
                requeue.put("requeueAt", Objects.timestamp(status.requeueState().requeueAt()));
            }
            out.put("requeueState", requeue);
        }
        if (status.pendingReason() != null) {
            out.put("pendingReason", Map.of("code", status.pendingReason().code(), "message",
                    status.pendingReason().message() == null ? "" : status.pendingReason().message()));
        }
        if (status.positionInClusterQueue() != null) {
            out.put("positionInClusterQueue", status.positionInClusterQueue());
        }
        if (status.positionInLocalQueue() != null) {
            out.put("positionInLocalQueue", status.positionInLocalQueue());
        }
        if (status.forecast() != null && status.forecast().estimatedAdmissionAt() != null) {
            Map<String, Object> forecast = new LinkedHashMap<>();
            forecast.put("estimatedAdmissionAt", Objects.timestamp(status.forecast().estimatedAdmissionAt()));
            forecast.put("p10", Objects.timestamp(status.forecast().p10()));
            forecast.put("p90", Objects.timestamp(status.forecast().p90()));
            forecast.put("message", status.forecast().message());
            out.put("forecast", forecast);
        }
        return out;
    }
}
