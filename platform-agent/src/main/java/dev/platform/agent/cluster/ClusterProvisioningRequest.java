package dev.platform.agent.cluster;

import dev.platform.api.agent.ProvisioningRequestReport;
import java.util.List;

/**
 * A ProvisioningRequest the platform made in the cluster, as the API server holds it: the workload and admission
 * check it was made for (its labels), its attempt, class, the PodTemplates it names, the conditions the cluster
 * autoscaler set, and the node pools provisioned for it when the cluster knows them (the simulated one does).
 */
public record ClusterProvisioningRequest(
        String namespace,
        String name,
        String workloadUid,
        String admissionCheck,
        int attempt,
        String provisioningClassName,
        List<String> podTemplates,
        List<ProvisioningRequestReport.Condition> conditions,
        List<String> nodePools) {

    public ClusterProvisioningRequest {
        podTemplates = podTemplates == null ? List.of() : List.copyOf(podTemplates);
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
    }

    /** A request whose node pools the cluster does not say (a Kubernetes cluster's). */
    public ClusterProvisioningRequest(String namespace, String name, String workloadUid, String admissionCheck,
                                      int attempt, String provisioningClassName, List<String> podTemplates,
                                      List<ProvisioningRequestReport.Condition> conditions) {
        this(namespace, name, workloadUid, admissionCheck, attempt, provisioningClassName, podTemplates, conditions,
                List.of());
    }

    public String key() {
        return namespace + "/" + name;
    }

    /** Whether the cluster autoscaler says the capacity exists (condition Provisioned True). */
    public boolean provisioned() {
        return conditions.stream().anyMatch(c -> "Provisioned".equals(c.type()) && c.isTrue());
    }

    public ProvisioningRequestReport report() {
        return new ProvisioningRequestReport(namespace, name, workloadUid, admissionCheck, attempt, conditions,
                nodePools);
    }
}
