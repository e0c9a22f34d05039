package dev.platform.scheduler.visibility;

import dev.platform.api.identity.Caller;
import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.scheduler.config.ConfigStore;
import dev.platform.scheduler.config.ObjectKey;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.workload.PendingWorkloadsController;
import dev.platform.scheduler.workload.WorkloadStore;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Kueue's own visibility API, {@code visibility.kueue.x-k8s.io/v1beta2}, so that scripts written for
 * {@code kubectl get --raw /apis/visibility.kueue.x-k8s.io/v1beta2/...} work here: a
 * {@code PendingWorkloadsSummary} field for field (apis/visibility/v1beta2/types.go), paged as Kueue's storage
 * pages it (pkg/visibility/storage: {@code limit} 1000 when absent or 0, at most 100000; {@code offset} from 0).
 * The same queries and rules as the platform's richer {@code /api/v1/.../pendingworkloads}: a team member reads
 * their own workloads of a shared ClusterQueue, whose positions still count everyone ahead.
 */
@RestController
@RequestMapping(path = "/apis/visibility.kueue.x-k8s.io/v1beta2", produces = "application/json")
public class KueueVisibilityController {

    static final String API_VERSION = "visibility.kueue.x-k8s.io/v1beta2";
    static final long DEFAULT_LIMIT = 1000;
    static final long MAX_LIMIT = 100_000;

    private final WorkloadStore store;
    private final ConfigStore config;

    public KueueVisibilityController(WorkloadStore store, ConfigStore config) {
        this.store = store;
        this.config = config;
    }

    @GetMapping("/clusterqueues/{name}/pendingworkloads")
    public Map<String, Object> clusterQueue(@PathVariable String name,
                                            @RequestParam(defaultValue = "0") long offset,
                                            @RequestParam(defaultValue = "0") long limit, Caller caller) {
        config.find(Kind.CLUSTER_QUEUE, ObjectKey.cluster(name), ClusterQueueManifest.class)
                .orElseThrow(() -> Refusal.notFound("ClusterQueue", name));
        return summary(store.pendingInClusterQueue(name, offset(offset), limit(limit)).stream()
                .filter(w -> caller.mayRead(w.namespace())).toList());
    }

    @GetMapping("/namespaces/{namespace}/localqueues/{name}/pendingworkloads")
    public Map<String, Object> localQueue(@PathVariable String namespace, @PathVariable String name,
                                          @RequestParam(defaultValue = "0") long offset,
                                          @RequestParam(defaultValue = "0") long limit) {
        config.find(Kind.LOCAL_QUEUE, new ObjectKey(namespace, name), LocalQueueManifest.class)
                .orElseThrow(() -> Refusal.notFound("LocalQueue", namespace + "/" + name));
        return summary(store.pendingInLocalQueue(namespace, name, offset(offset), limit(limit)));
    }

    /** Kueue's boundedLimitOffset: an absent or zero limit is the default; a negative one lists nothing. */
    private static int limit(long limit) {
        return (int) Math.min(limit == 0 ? DEFAULT_LIMIT : Math.max(limit, 0), MAX_LIMIT);
    }

    private static int offset(long offset) {
        return (int) Math.min(Math.max(offset, 0), Integer.MAX_VALUE);
    }

    /** PendingWorkloadsSummary: TypeMeta, ObjectMeta (empty), items. */
    private Map<String, Object> summary(List<PendingWorkloadsController.PendingWorkload> workloads) {
        Map<UUID, WorkloadStore.Owner> owners = store.owners(workloads.stream()
                .map(PendingWorkloadsController.PendingWorkload::uid).toList());
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("kind", "PendingWorkloadsSummary");
        summary.put("apiVersion", API_VERSION);
        summary.put("metadata", Map.of());
        summary.put("items", workloads.stream().map(w -> item(w, owners.get(w.uid()))).toList());
        return summary;
    }

    /**
     * PendingWorkload: ObjectMeta with name, namespace, creationTimestamp and, for a JobSet or Job, the owner
     * reference Kueue gives the Workload it creates for the job; then priority, localQueueName and both positions.
     */
    private static Map<String, Object> item(PendingWorkloadsController.PendingWorkload w, WorkloadStore.Owner owner) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", w.name());
        metadata.put("namespace", w.namespace());
        metadata.put("creationTimestamp", kubernetesTime(w.creationTimestamp()));
        if (owner != null && !Kind.WORKLOAD.manifestName().equals(owner.kind())) {
            Map<String, Object> reference = new LinkedHashMap<>();
            reference.put("apiVersion", owner.apiVersion());
            reference.put("kind", owner.kind());
            reference.put("name", w.name());
            reference.put("uid", w.uid());
            metadata.put("ownerReferences", List.of(reference));
        }
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("metadata", metadata);
        item.put("priority", w.priority());
        item.put("localQueueName", w.localQueueName());
        item.put("positionInClusterQueue", w.positionInClusterQueue());
        item.put("positionInLocalQueue", w.positionInLocalQueue());
        return item;
    }

    /** metav1.Time: RFC 3339 in whole seconds, UTC. */
    static String kubernetesTime(Instant at) {
        return at == null ? null : at.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
