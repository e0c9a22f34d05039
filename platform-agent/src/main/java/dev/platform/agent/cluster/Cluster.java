package dev.platform.agent.cluster;

import dev.platform.api.agent.ProvisioningRequestSpec;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The agent's port to a Kubernetes cluster: a real one through client-java, or a simulated one
 * in memory. Reads of pods come from the watch cache; the agent never lists the whole cluster.
 */
public interface Cluster extends AutoCloseable {

    /** Starts watching; the current state arrives first as changes, then every change as it happens. */
    void watch(ClusterEvents events);

    /** True once the initial state of nodes, pods, JobSets and Jobs has been delivered. */
    boolean hasSynced();

    /** A JobSet or Job read from the API server, not the cache: commands decide on it. */
    Optional<ClusterJob> job(JobKind kind, String namespace, String name);

    /** Pods of a platform workload, from the watch cache. */
    List<ClusterPod> podsOf(String workloadUid);

    /**
     * Every pod of a JobSet or Job (its controller's label, {@link JobKind#podLabel()}), read from the API server:
     * one the platform did not start has pods without the platform's labels, which the watch cache leaves out.
     */
    List<ClusterPod> podsOfJob(JobKind kind, String namespace, String name);

    /** @return false when an object of that kind and name already exists. */
    boolean createJob(JobKind kind, JsonNode object);

    /** RFC 7386 JSON merge patch. */
    void patchJob(JobKind kind, String namespace, String name, JsonNode mergePatch);

    /** Deletes the object and, in the background, what it owns (a JobSet's Jobs, a Job's pods). No-op when absent. */
    void deleteJob(JobKind kind, String namespace, String name);

    default Optional<ClusterJob> jobSet(String namespace, String name) {
        return job(JobKind.JOBSET, namespace, name);
    }

    default List<ClusterPod> podsOfJobSet(String namespace, String name) {
        return podsOfJob(JobKind.JOBSET, namespace, name);
    }

    default boolean createJobSet(JsonNode jobSet) {
        return createJob(JobKind.JOBSET, jobSet);
    }

    default void patchJobSet(String namespace, String name, JsonNode mergePatch) {
        patchJob(JobKind.JOBSET, namespace, name, mergePatch);
    }

    default void deleteJobSet(String namespace, String name) {
        deleteJob(JobKind.JOBSET, namespace, name);
    }

    /** Creates a core v1 Event. */
    void createEvent(JsonNode event);

    /** RFC 7386 JSON merge patch of an Event: a repeated one's count and last time. */
    void patchEvent(String namespace, String name, JsonNode mergePatch);

    /** policy/v1 Eviction, so PodDisruptionBudgets are honoured. */
    EvictionOutcome evictPod(String namespace, String name);

    /** The ProvisioningRequests the platform made (label platform.dev/managed), read from the API server. */
    List<ClusterProvisioningRequest> provisioningRequests();

    /**
     * Creates a ProvisioningRequest and its PodTemplates as Kueue does: the PodTemplates first, the request naming
     * them, then the PodTemplates owned by the request, so that deleting the request deletes them. A PodTemplate or
     * request that already exists (a creation cut short before) is kept.
     */
    void createProvisioningRequest(ProvisioningRequestSpec request);

    /** Deletes the request and its PodTemplates; no-op for what is absent. */
    void deleteProvisioningRequest(ClusterProvisioningRequest request);

    @Override
    void close();
}
