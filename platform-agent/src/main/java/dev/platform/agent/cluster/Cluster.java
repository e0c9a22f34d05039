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

    /** True once the initial state of nodes, pods and JobSets has been delivered. */
    boolean hasSynced();

    /** Read from the API server, not the cache: commands decide on it. */
    Optional<ClusterJobSet> jobSet(String namespace, String name);

    /** Pods of a platform workload, from the watch cache. */
    List<ClusterPod> podsOf(String workloadUid);

    /**
     * Every pod of a JobSet (JobSet's label {@code jobset.sigs.k8s.io/jobset-name}), read from the API server: a
     * JobSet the platform did not start has pods without the platform's labels, which the watch cache leaves out.
     */
    List<ClusterPod> podsOfJobSet(String namespace, String name);

    /** @return false when a JobSet of that name already exists. */
    boolean createJobSet(JsonNode jobSet);

    /** RFC 7386 JSON merge patch. */
    void patchJobSet(String namespace, String name, JsonNode mergePatch);

    /** Deletes the JobSet and, in the background, its Jobs and pods. No-op when absent. */
    void deleteJobSet(String namespace, String name);

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
