package dev.platform.api.agent;

import java.time.Instant;
import java.util.List;

/**
 * What the cluster says of one ProvisioningRequest the agent made: its conditions as the cluster autoscaler sets
 * them ({@code Accepted}, {@code Provisioned}, {@code Failed}, {@code BookingExpired}, {@code CapacityRevoked}).
 * Posted as a list, every request the agent manages in the cluster, to
 * {@code POST /api/v1/agent/clusters/{cluster}/provisioningrequests/status}. {@code nodePools} are the node pools the
 * cluster provisioned for the request, when it knows them (the simulated cluster does); the platform places only its
 * workload on them.
 */
public record ProvisioningRequestReport(
        String namespace,
        String name,
        String workloadUid,
        String admissionCheck,
        int attempt,
        List<Condition> conditions,
        List<String> nodePools) {

    public ProvisioningRequestReport {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
    }

    /** A request whose node pools the cluster does not say. */
    public ProvisioningRequestReport(String namespace, String name, String workloadUid, String admissionCheck,
                                     int attempt, List<Condition> conditions) {
        this(namespace, name, workloadUid, admissionCheck, attempt, conditions, List.of());
    }

    /** A status condition: {@code status} is "True", "False" or "Unknown", as in Kubernetes. */
    public record Condition(String type, String status, String reason, String message, Instant lastTransitionTime) {

        public boolean isTrue() {
            return "True".equals(status);
        }
    }
}
