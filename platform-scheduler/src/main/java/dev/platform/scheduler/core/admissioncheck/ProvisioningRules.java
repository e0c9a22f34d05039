package dev.platform.scheduler.core.admissioncheck;

import dev.platform.scheduler.core.admissioncheck.ProvisioningRequestStatus.Condition;

import java.time.Instant;

/**
 * How the state of a {@code kueue.x-k8s.io/provisioning-request} check follows its ProvisioningRequest's conditions
 * (Kueue's provisioning controller, syncCheckStates), the first that holds deciding:
 * <ol>
 *   <li>Failed: Retry with the config's backoff while the attempt is within {@code backoffLimitCount}, else
 *       Rejected;</li>
 *   <li>CapacityRevoked: Retry, so the workload is evicted and requeued to ask for capacity again (Kueue 0.14
 *       rejects it; requeueing lets a revoked slice be replaced without an operator);</li>
 *   <li>BookingExpired before the workload is admitted: as Failed; once admitted the pods hold the capacity and
 *       an expired booking changes nothing;</li>
 *   <li>Provisioned: Ready;</li>
 *   <li>otherwise Pending, with the Provisioned condition's message (the autoscaler's estimate) once Accepted.</li>
 * </ol>
 * A failure of an older attempt than the check already counts does not retry again.
 */
public final class ProvisioningRules {

    /** Kueue's message on a check whose ProvisioningRequestConfig does not exist. */
    public static final String CHECK_INACTIVE = "the check is not active";
    /** Kueue's message on a check Ready without a request: no pod set uses a managed resource. */
    public static final String NO_REQUEST_NEEDED = "the provisioning request is not needed";

    private ProvisioningRules() {
    }

    /**
     * Kueue's provisioning controller before any request is made (syncCheckStates' first two cases), for a Pending
     * check: when its ProvisioningRequestConfig does not exist ({@code active} false) the check is inactive and stays
     * Pending, saying so; when none of the workload's pod sets uses one of the config's managed resources
     * ({@code needed} false) there is nothing to provision and the check is Ready at once. Otherwise, and for a
     * check in any other state, the check is as it was: its request decides.
     */
    public static AdmissionCheckState withoutRequest(AdmissionCheckState check, boolean active, boolean needed,
                                                     Instant now) {
        if (check.state() != CheckState.Pending) {
            return check;
        }
        if (!active) {
            return check.to(CheckState.Pending, CHECK_INACTIVE, null, now);
        }
        return needed ? check : check.to(CheckState.Ready, NO_REQUEST_NEEDED, null, now);
    }

    /** The check's next state given its request's {@code status}; {@code admitted} when every check was Ready. */
    public static AdmissionCheckState next(AdmissionCheckState check, ProvisioningRequestStatus status,
                                           RetryStrategy retry, boolean admitted, Instant now) {
        if (status.isTrue(Condition.Failed)) {
            return retryOrReject(check, status, retry, "Retrying after failure: ", status.message(Condition.Failed), now);
        }
        if (status.isTrue(Condition.CapacityRevoked)) {
            return check.to(CheckState.Retry, status.message(Condition.CapacityRevoked),
                    seconds(retry, check.retryCount() + 1), now);
        }
        if (status.isTrue(Condition.BookingExpired)) {
            return admitted ? check : retryOrReject(check, status, retry, "Retrying after booking expired: ",
                    status.message(Condition.BookingExpired), now);
        }
        if (status.isTrue(Condition.Provisioned)) {
            return check.to(CheckState.Ready, status.message(Condition.Provisioned), null, now);
        }
        if (status.isTrue(Condition.Accepted)) {
            return check.to(CheckState.Pending, status.message(Condition.Provisioned), null, now);
        }
        return check.to(CheckState.Pending, "", null, now);
    }

    private static AdmissionCheckState retryOrReject(AdmissionCheckState check, ProvisioningRequestStatus status,
                                                     RetryStrategy retry, String prefix, String message, Instant now) {
        if (status.attempt() > retry.backoffLimitCount()) {
            return check.to(CheckState.Rejected, message, null, now);
        }
        if (status.attempt() <= check.retryCount()) {
            return check.to(check.state(), prefix + message, check.requeueAfterSeconds(), now);
        }
        return check.to(CheckState.Retry, prefix + message, seconds(retry, check.retryCount() + 1), now);
    }

    private static int seconds(RetryStrategy retry, int n) {
        return (int) retry.backoff(n).toSeconds();
    }

    /** Kueue's name of the request for {@code attempt} of {@code check} on {@code workload}. */
    public static String requestName(String workload, String check, int attempt) {
        return KubernetesObjectNames.limit(workload + "-" + check + "-" + attempt);
    }

    /** Kueue's name of the PodTemplate of {@code podSet} in request {@code requestName}. */
    public static String podTemplateName(String requestName, String podSet) {
        return KubernetesObjectNames.limit("ppt-" + requestName + "-" + podSet);
    }
}
