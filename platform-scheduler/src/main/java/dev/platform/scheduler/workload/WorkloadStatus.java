package dev.platform.scheduler.workload;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The workload status resource of the REST contract, whose field names are fixed (callers outside rely on them).
 * {@code forecast} is an addition: when a pending workload is expected to be admitted (null for other states and
 * before the first forecast). {@code active} is Kueue's {@code spec.active} (false once the workload is deactivated,
 * by its owner or by the leader: it holds no quota and waits outside its queue, pending reason Deactivated, until it
 * is activated), {@code requeueState} Kueue's {@code status.requeueState} (null until the workload is
 * first requeued after a PodsReady timeout or a start that failed transiently), {@code submittedBy} the caller who
 * submitted it (null when unknown: adopted from a cluster, or submitted before submitters were recorded).
 * {@code priority} is the effective priority, {@code basePriority} plus {@code priorityBoost} (Kueue's annotation
 * {@code kueue.x-k8s.io/priority-boost}, 0 when absent). {@code admissionChecks} is Kueue's
 * {@code status.admissionChecks}: the state of each check its ClusterQueue gave it (empty when none); while one is
 * not Ready its quota is only reserved (the Admitted condition is False) and its pending reason says
 * {@code waiting for admission checks}.
 */
public record WorkloadStatus(
        String namespace,
        String name,
        String kind,
        String uid,
        String queueName,
        String clusterQueue,
        String priorityClassName,
        int priority,
        WorkloadState state,
        List<PodSet> podSets,
        Admission admission,
        List<Condition> conditions,
        Integer positionInClusterQueue,
        Integer positionInLocalQueue,
        PendingReason pendingReason,
        Instant createdAt,
        Instant admittedAt,
        Forecast forecast,
        boolean active,
        RequeueState requeueState,
        String submittedBy,
        int basePriority,
        int priorityBoost,
        List<AdmissionCheck> admissionChecks) {

    public WorkloadStatus {
        admissionChecks = admissionChecks == null ? List.of() : List.copyOf(admissionChecks);
    }

    /** A status without admission checks. */
    public WorkloadStatus(String namespace, String name, String kind, String uid, String queueName,
                          String clusterQueue, String priorityClassName, int priority, WorkloadState state,
                          List<PodSet> podSets, Admission admission, List<Condition> conditions,
                          Integer positionInClusterQueue, Integer positionInLocalQueue, PendingReason pendingReason,
                          Instant createdAt, Instant admittedAt, Forecast forecast, boolean active,
                          RequeueState requeueState, String submittedBy, int basePriority, int priorityBoost) {
        this(namespace, name, kind, uid, queueName, clusterQueue, priorityClassName, priority, state, podSets,
                admission, conditions, positionInClusterQueue, positionInLocalQueue, pendingReason, createdAt,
                admittedAt, forecast, active, requeueState, submittedBy, basePriority, priorityBoost, null);
    }

    /** One check's state on the workload, as Kueue writes it. */
    public record AdmissionCheck(String name, String state, String message, Instant lastTransitionTime) {
    }

    /** requests are per pod, as Kubernetes quantities. */
    public record PodSet(String name, int count, Map<String, String> requests) {
    }

    public record Admission(String clusterQueue, List<PodSetAssignment> podSetAssignments) {
    }

    /** flavors: resource to flavor; resourceUsage: resource to total quantity for the podset. */
    public record PodSetAssignment(String name, int count, Map<String, String> flavors,
                                   Map<String, String> resourceUsage, List<String> nodePools) {
        public PodSetAssignment {
            nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
        }
    }

    public record Condition(String type, String status, String reason, String message, Instant lastTransitionTime) {
    }

    public record PendingReason(String code, String message) {
    }

    /**
     * Kueue's requeueState: how many times the workload was requeued with backoff, and when its current backoff
     * ends (null when it is not backing off).
     */
    public record RequeueState(int count, Instant requeueAt) {
    }

    /**
     * The wait-time forecast: the estimated admission time and its range (the median and 10th-90th percentiles
     * over runs with arrivals expected from the history, or from runtimes at their 10th and 90th percentile when
     * no arrivals are expected), what it rests on ({@code basis}, a ForecastBasis name), in words, when it was
     * computed and whether the queue changed since without it being computed again ({@code stale});
     * {@code ifNothingArrivesAt}, the admission if nothing new is submitted, and {@code arrivalBasis} (an
     * ArrivalBasis name), whether arrivals were expected. The times are null when there is no estimate; the basis
     * and message then say why.
     */
    public record Forecast(Instant estimatedAdmissionAt, Instant p10, Instant p90, String basis, String message,
                           Instant computedAt, boolean stale, Instant ifNothingArrivesAt, String arrivalBasis) {
    }
}
