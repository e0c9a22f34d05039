package dev.platform.scheduler.workload;

import dev.platform.api.manifest.decode.NearestName;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.WorkloadManifest;
import dev.platform.api.manifest.WorkloadManifest.PodSetSpec;
import dev.platform.scheduler.core.Quantities;
import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.refusal.Refusal;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a submission is checked for beyond its own validity: that a retry with an Idempotency-Key sends what the
 * key was first used with, and whether a queued workload could ever be admitted (its LocalQueue exists; its
 * requests fit in what its ClusterQueue could ever give). {@code POST /namespaces/{ns}/workloads} refuses a
 * workload that never could; {@code POST /manifests} applies it as Kueue does, with a warning.
 */
@Component
class SubmissionChecks {

    private final WorkloadStore store;
    private final QueueConfiguration configuration;

    SubmissionChecks(WorkloadStore store, QueueConfiguration configuration) {
        this.store = store;
        this.configuration = configuration;
    }

    /**
     * Why a workload can never be admitted as it stands, at the path that says so. {@code platformDoes} is what
     * applying it anyway leads to.
     */
    record Problem(int document, String path, String message, String platformDoes) {

        Map<String, Object> error() {
            return Map.of("document", document, "path", path, "message", message);
        }

        String warning() {
            return path + ": " + message + "; " + platformDoes;
        }
    }

    /**
     * A key names one request (the IETF Idempotency-Key header draft, as payment APIs use it): a retry with the
     * same manifest gets the first result, another manifest under the same key is a 422 naming it.
     */
    void requireSameRequest(WorkloadRow earlier, WorkloadManifest manifest, String idempotencyKey, int document) {
        if (store.sameManifest(earlier.uid(), manifest.manifest())) {
            return;
        }
        String message = "Idempotency-Key '" + idempotencyKey + "' was first used to submit " + earlier.kind() + " "
                + earlier.namespace() + "/" + earlier.name() + " (uid " + earlier.uid() + ") with another manifest;"
                + " a retry must send the same body, and a new workload needs a new key";
        throw new Refusal(Refusal.Kind.Invalid, "Idempotency-Key reused", message,
                List.of(Map.of("document", document, "path", "Idempotency-Key", "message", message)));
    }

    /** Refuses when {@code problems} name any. */
    static void refuse(List<Problem> problems) {
        if (!problems.isEmpty()) {
            throw new Refusal(Refusal.Kind.Invalid, "Invalid workload", problems.get(0).message(),
                    problems.stream().map(Problem::error).toList());
        }
    }

    /**
     * Why {@code workload}, in LocalQueue {@code queue} feeding {@code clusterQueue} (null: the LocalQueue does not
     * exist), could never be admitted; empty when it could.
     */
    List<Problem> neverAdmitted(WorkloadManifest workload, String queue, String clusterQueue, int document) {
        return neverAdmitted(workload, queue, clusterQueue, document, configuration);
    }

    /** As above, reading {@code configuration} (a view of it as of now, for one submission). */
    List<Problem> neverAdmitted(WorkloadManifest workload, String queue, String clusterQueue, int document,
                                QueueConfiguration configuration) {
        if (clusterQueue == null) {
            return List.of(missingLocalQueue(workload, queue, document));
        }
        return beyondCapacity(workload, clusterQueue, document, configuration);
    }

    private Problem missingLocalQueue(WorkloadManifest workload, String queue, int document) {
        String namespace = workload.namespace();
        List<String> existing = configuration.localQueueNames(namespace, Integer.MAX_VALUE);
        String message = "LocalQueue " + queue + " does not exist in namespace " + namespace
                + NearestName.nearest(queue, existing).map(n -> "; the nearest LocalQueue there is " + n)
                        .orElse("; the namespace has no LocalQueue");
        return new Problem(document, queuePath(workload), message,
                "the workload waits with LocalQueueNotFound until the LocalQueue exists");
    }

    /** Where the workload names its queue: spec.queueName of a Workload, else the label or else the annotation. */
    private static String queuePath(WorkloadManifest workload) {
        if (workload.kind() == Kind.WORKLOAD) {
            return "spec.queueName";
        }
        boolean label = workload.metadata().labels().containsKey(QueueNameResolution.QUEUE_NAME_KEY);
        return "metadata." + (label ? "labels." : "annotations.") + QueueNameResolution.QUEUE_NAME_KEY;
    }

    /**
     * Kueue's "maximum capacity" test (flavorassigner fitsResourceQuota, ExceedsMaxQuota) before any flavor is
     * chosen, so only what no choice of flavors could fit: a pod set asking more of a resource than any one flavor
     * could ever give, or all pod sets together more than all flavors. A pod set that accepts fewer pods (partial
     * admission) counts with its least count.
     */
    private static List<Problem> beyondCapacity(WorkloadManifest workload, String clusterQueue, int document,
                                                QueueConfiguration configuration) {
        Map<FlavorResource, Long> limits = configuration.capacity(clusterQueue);
        if (limits.isEmpty()) {
            return List.of();
        }
        Map<String, Long> largestFlavor = new TreeMap<>();
        Map<String, Long> allFlavors = new TreeMap<>();
        limits.forEach((fr, max) -> {
            largestFlavor.merge(fr.resource(), max, Math::max);
            allFlavors.merge(fr.resource(), max, Long::sum);
        });
        List<Problem> problems = new ArrayList<>();
        Map<String, Long> total = new TreeMap<>();
        for (int i = 0; i < workload.podSets().size(); i++) {
            PodSetSpec podSet = workload.podSets().get(i);
            int pods = podSet.minCount() != null ? podSet.minCount() : podSet.count();
            for (String resource : new TreeSet<>(podSet.requests().keySet())) {
                Long max = largestFlavor.get(resource);
                if (max == null) {
                    continue;
                }
                long request = podSet.requests().get(resource).milliValue() * pods;
                total.merge(resource, request, Long::sum);
                if (request > max) {
                    problems.add(new Problem(document, PodSetPaths.request(workload, i, resource),
                            PodSetPaths.named(workload, i) + " asks for " + Quantities.format(request) + " " + resource
                            + " (" + pods + " pods x " + podSet.requests().get(resource) + "), more than ClusterQueue "
                            + clusterQueue
                            + " can ever give in one flavor: at most " + Quantities.format(max) + " (nominal quota"
                            + " plus what it may borrow)", "the workload waits with ExceedsMaxQuota"));
                }
            }
        }
        if (problems.isEmpty()) {
            total.forEach((resource, request) -> {
                if (request > allFlavors.get(resource)) {
                    problems.add(new Problem(document, "podSets", "the pod sets request "
                            + Quantities.format(request) + " " + resource + " together, more than ClusterQueue "
                            + clusterQueue + " can ever give: at most " + Quantities.format(allFlavors.get(resource))
                            + " (nominal quota plus what it may borrow, over all its flavors)",
                            "the workload waits with ExceedsMaxQuota"));
                }
            });
        }
        return problems;
    }
}
