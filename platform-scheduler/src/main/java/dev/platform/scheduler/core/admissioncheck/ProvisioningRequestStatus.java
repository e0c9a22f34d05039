package dev.platform.scheduler.core.admissioncheck;

import java.util.Map;

/**
 * What the cluster autoscaler says of one {@code autoscaling.x-k8s.io/v1} ProvisioningRequest: its attempt (the
 * number ending its name, {@code <workload>-<check>-<attempt>}) and its conditions, by type, each with its status and
 * message.
 */
public record ProvisioningRequestStatus(int attempt, Map<Condition, Reported> conditions) {

    /** The condition types of a ProvisioningRequest. */
    public enum Condition { Accepted, Provisioned, Failed, BookingExpired, CapacityRevoked }

    /** A condition as reported: True or not, and its message. */
    public record Reported(boolean status, String message) {
        public Reported {
            message = message == null ? "" : message;
        }
    }

    public ProvisioningRequestStatus {
        conditions = Map.copyOf(conditions);
    }

    public boolean isTrue(Condition c) {
        Reported r = conditions.get(c);
        return r != null && r.status();
    }

    public String message(Condition c) {
        Reported r = conditions.get(c);
        return r == null ? "" : r.message();
    }
}
