package dev.platform.scheduler.workload;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.refusal.Refusal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

/**
 * Kueue's visibility API: pending workloads of a ClusterQueue or LocalQueue in queue order, with
 * their 0-based positions, pageable by {@code offset} and {@code limit} as Kueue's is. A ClusterQueue
 * is shared by teams: a team member's page lists their own workloads, whose positions still count
 * everyone ahead of them.
 */
@RestController
@RequestMapping(path = "/api/v1", produces = "application/json")
public class PendingWorkloadsController {

    static final int MAX_LIMIT = 1000;

    private final WorkloadStore store;

    public PendingWorkloadsController(WorkloadStore store) {
        this.store = store;
    }

    @GetMapping("/clusterqueues/{name}/pendingworkloads")
    public PendingWorkloads clusterQueue(@PathVariable String name,
                                         @RequestParam(defaultValue = "0") int offset,
                                         @RequestParam(defaultValue = "100") int limit, Caller caller) {
        check(offset, limit);
        return new PendingWorkloads(store.pendingInClusterQueue(name, offset, limit).stream()
                .filter(w -> caller.mayRead(w.namespace())).toList());
    }

    @GetMapping("/namespaces/{namespace}/localqueues/{name}/pendingworkloads")
    public PendingWorkloads localQueue(@PathVariable String namespace, @PathVariable String name,
                                       @RequestParam(defaultValue = "0") int offset,
                                       @RequestParam(defaultValue = "100") int limit) {
        check(offset, limit);
        return new PendingWorkloads(store.pendingInLocalQueue(namespace, name, offset, limit));
    }

    private static void check(int offset, int limit) {
        if (offset < 0 || limit < 1 || limit > MAX_LIMIT) {
            throw new Refusal(Refusal.Kind.Malformed, "Bad Request",
                    "offset must be >= 0 and limit between 1 and " + MAX_LIMIT, List.of());
        }
    }

    /** Kueue's PendingWorkloadsSummary shape: {@code items}. */
    public record PendingWorkloads(List<PendingWorkload> items) {
    }

    /**
     * One pending workload with its place in both queues (null for an inadmissible one, which has none), why it waits, when it is expected to be admitted, its
     * priority class (null when its priority comes from none) and who submitted it (null when unknown).
     */
    public record PendingWorkload(String namespace, String name, java.util.UUID uid, String localQueueName,
                                  String clusterQueue, int priority, Integer positionInClusterQueue,
                                  Integer positionInLocalQueue, java.time.Instant creationTimestamp,
                                  WorkloadStatus.PendingReason pendingReason, WorkloadStatus.Forecast forecast,
                                  String priorityClassName, String submittedBy) {
    }
}
