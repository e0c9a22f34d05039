package dev.platform.api.agent;

import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * One element of the array answered by {@code GET /api/v1/agent/clusters/{cluster}/provisioningrequests}: an
 * {@code autoscaling.x-k8s.io/v1} ProvisioningRequest the cluster should hold for a workload whose quota is reserved
 * (or admitted) on a ClusterQueue with a {@code kueue.x-k8s.io/provisioning-request} admission check, named as Kueue
 * names it ({@code <workload>-<check>-<attempt>}). The agent creates what is listed and missing, and deletes the
 * requests it made that are no longer listed (the workload finished, was evicted, or moved to its next attempt).
 *
 * @param parameters the ProvisioningRequestConfig's {@code parameters} and the workload's
 *                   {@code provreq.kueue.x-k8s.io/} annotations, as Kueue passes them
 * @param podSets    one PodTemplate each, named {@code ppt-<request>-<podSet>}
 */
public record ProvisioningRequestSpec(
        String namespace,
        String name,
        String workloadUid,
        String workloadName,
        String admissionCheck,
        int attempt,
        String provisioningClassName,
        Map<String, String> parameters,
        List<PodSet> podSets) {

    public ProvisioningRequestSpec {
        parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
        podSets = podSets == null ? List.of() : List.copyOf(podSets);
    }

    /**
     * A pod set of the request: {@code count} pods like {@code template} (a {@code PodTemplateSpec}: the workload's
     * pod template with its flavor's node labels merged into the nodeSelector), in PodTemplate
     * {@code podTemplateName}.
     */
    public record PodSet(String name, String podTemplateName, int count, JsonNode template) {
    }
}
