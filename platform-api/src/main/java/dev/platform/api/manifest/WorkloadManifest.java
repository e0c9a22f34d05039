package dev.platform.api.manifest;

import java.util.List;
import java.util.Map;

/**
 * A submitted workload (JobSet, batch Job or kueue Workload) decoded into what scheduling needs;
 * the original manifest is kept to materialise it in a cluster.
 *
 * @param kind                          JOB_SET, JOB or WORKLOAD
 * @param queueName                     label, else annotation {@code kueue.x-k8s.io/queue-name}
 *                                      ({@code spec.queueName} for a Workload); null when absent
 * @param workloadPriorityClassName     label {@code kueue.x-k8s.io/priority-class}; null when absent
 * @param priorityClassName             the first {@code priorityClassName} among the pod templates
 *                                      ({@code spec.priorityClassName} for a Workload); null when absent
 * @param explicitPriority              {@code spec.priority} of a Workload; null otherwise
 * @param podSets                       one per replicatedJob (JobSet), one {@code main} (Job), or as written (Workload)
 * @param exclusiveTopology             the JobSet annotation {@code alpha.jobset.sigs.k8s.io/exclusive-topology}, or null
 * @param maxRestarts                   JobSet {@code spec.failurePolicy.maxRestarts}; null when absent
 * @param restartStrategy               JobSet {@code spec.failurePolicy.restartStrategy} (Recreate | BlockingRecreate); null when absent
 * @param suspend                       {@code spec.suspend} as submitted
 * @param maximumExecutionTimeSeconds   Kueue's maximum execution time: {@code spec.maximumExecutionTimeSeconds}
 *                                      of a Workload, label {@code kueue.x-k8s.io/max-exec-time-seconds} of a Job
 *                                      or JobSet; null when unlimited
 * @param active                        Kueue's {@code spec.active} of a Workload (false: kept, not queued); true for
 *                                      other kinds
 * @param manifest                      the original object as a JSON-compatible tree
 */
public record WorkloadManifest(
        Kind kind,
        String apiVersion,
        ObjectMeta metadata,
        String queueName,
        String workloadPriorityClassName,
        String priorityClassName,
        Integer explicitPriority,
        List<PodSetSpec> podSets,
        String exclusiveTopology,
        Integer maxRestarts,
        String restartStrategy,
        boolean suspend,
        Integer maximumExecutionTimeSeconds,
        boolean active,
        Map<String, Object> manifest) implements Manifest {

    public WorkloadManifest {
        podSets = List.copyOf(podSets);
    }

    @Override
    public String namespace() {
        return metadata.namespace();
    }

    @Override
    public String name() {
        return metadata.name();
    }

    /**
     * One group of identical pods.
     *
     * @param count        pods in the group: replicas x min(parallelism, completions) for a JobSet's replicated job
     * @param minCount     the least count the workload accepts (partial admission), null when it needs all
     * @param requests     per-pod effective requests: max(sum of containers, each init container), limits
     *                     standing in for missing requests as Kubernetes defaults them
     * @param nodeSelector the pod template's nodeSelector
     * @param requiredNodeAffinity  the pod template's required node affinity terms, each a list of
     *                     requirements (OR of ANDs); empty when none
     * @param tolerations  the pod template's tolerations
     * @param replicas     JobSet replicated-job replicas (slices); 1 for other kinds
     * @param podsPerReplica pods in one replica: min(parallelism, completions)
     */
    public record PodSetSpec(
            String name,
            int count,
            Integer minCount,
            Map<String, Quantity> requests,
            Map<String, String> nodeSelector,
            List<List<LabelSelector.Requirement>> requiredNodeAffinity,
            List<ResourceFlavorManifest.Toleration> tolerations,
            int replicas,
            int podsPerReplica) {

        public PodSetSpec {
            requests = Map.copyOf(requests);
            nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector);
            requiredNodeAffinity = requiredNodeAffinity == null ? List.of() : List.copyOf(requiredNodeAffinity);
            tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
        }
    }
}
