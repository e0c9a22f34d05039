package dev.platform.web.workload;

import dev.platform.api.reason.WaitReason;
import dev.platform.api.identity.Caller;
import dev.platform.web.console.ForecastView;
import dev.platform.web.console.PendingReasons;
import dev.platform.web.console.PodSetPlacement;
import dev.platform.web.console.PreemptionView;
import dev.platform.web.console.Priorities;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What the workload page reads: one workload with its manifest, admission, timeline and preemptions. */
public interface WorkloadQueries {

    /** The workload, its timeline and its preemptions; another team's workload in a preemption is not named. */
    Optional<WorkloadDetail> workload(Caller caller, String namespace, String name);

    /**
     * A workload in full. {@code manifestJson} is the manifest as submitted, stored as JSON;
     * {@code preemptions} are those it took part in, as preemptor or victim, newest first; {@code forecast} is
     * when a pending workload should start (null otherwise, or before the first forecast); {@code active} is
     * Kueue's spec.active (false once deactivated), {@code requeue} its requeueState (null before its first requeue);
     * {@code submittedBy} the caller who submitted it (null when unknown: adopted from a cluster, or older);
     * {@code protectedUntil} when the minimum runtime of its ClusterQueue stops protecting it from preemption (null
     * unless it holds an admission and is still within it); {@code admissionChecks} Kueue's status.admissionChecks, the
     * state of each check its ClusterQueue gave it (empty when none).
     */
    record WorkloadDetail(String namespace, String name, String kind, String uid, String queueName,
                          String clusterQueue, String priorityClassName, int priority, String state,
                          Integer positionInClusterQueue, Integer positionInLocalQueue, WaitReason pendingReason,
                          String pendingMessage, Instant createdAt, Instant admittedAt, List<PodSetView> podSets,
                          List<PodSetPlacement> admission, List<ConditionView> conditions,
                          List<EventView> events, List<PreemptionView> preemptions, String manifestJson,
                          ForecastView forecast, boolean active, RequeueView requeue, String submittedBy,
                          Instant protectedUntil, List<AdmissionCheckView> admissionChecks) {

        public WorkloadDetail {
            admissionChecks = admissionChecks == null ? List.of() : List.copyOf(admissionChecks);
        }

        /** A workload without admission checks. */
        public WorkloadDetail(String namespace, String name, String kind, String uid, String queueName,
                              String clusterQueue, String priorityClassName, int priority, String state,
                              Integer positionInClusterQueue, Integer positionInLocalQueue, WaitReason pendingReason,
                              String pendingMessage, Instant createdAt, Instant admittedAt, List<PodSetView> podSets,
                              List<PodSetPlacement> admission, List<ConditionView> conditions,
                              List<EventView> events, List<PreemptionView> preemptions, String manifestJson,
                              ForecastView forecast, boolean active, RequeueView requeue, String submittedBy,
                              Instant protectedUntil) {
            this(namespace, name, kind, uid, queueName, clusterQueue, priorityClassName, priority, state,
                    positionInClusterQueue, positionInLocalQueue, pendingReason, pendingMessage, createdAt, admittedAt,
                    podSets, admission, conditions, events, preemptions, manifestJson, forecast, active, requeue,
                    submittedBy, protectedUntil, List.of());
        }

        /** A workload not protected by a minimum runtime. */
        public WorkloadDetail(String namespace, String name, String kind, String uid, String queueName,
                              String clusterQueue, String priorityClassName, int priority, String state,
                              Integer positionInClusterQueue, Integer positionInLocalQueue, WaitReason pendingReason,
                              String pendingMessage, Instant createdAt, Instant admittedAt, List<PodSetView> podSets,
                              List<PodSetPlacement> admission, List<ConditionView> conditions,
                              List<EventView> events, List<PreemptionView> preemptions, String manifestJson,
                              ForecastView forecast, boolean active, RequeueView requeue, String submittedBy) {
            this(namespace, name, kind, uid, queueName, clusterQueue, priorityClassName, priority, state,
                    positionInClusterQueue, positionInLocalQueue, pendingReason, pendingMessage, createdAt, admittedAt,
                    podSets, admission, conditions, events, preemptions, manifestJson, forecast, active, requeue,
                    submittedBy, null, List.of());
        }

        public String priorityText() {
            return Priorities.describe(priorityClassName, priority);
        }

        public String pendingReasonText() {
            return PendingReasons.describe(pendingReason);
        }

        public boolean isFinished() {
            return "Finished".equals(state) || "Failed".equals(state);
        }
    }

    /** Kueue's requeueState: requeues so far, and when the current backoff ends (null when it is not backing off). */
    record RequeueView(int count, Instant requeueAt) {
    }

    /** requests are per pod. */
    record PodSetView(String name, int count, Map<String, String> requests) {
    }

    /** One of Kueue's status.admissionChecks: a check's state (Pending, Ready, Retry, Rejected), message and since when. */
    record AdmissionCheckView(String name, String state, String message, Instant lastTransitionTime) {
    }

    /** The latest condition of one type. */
    record ConditionView(String type, String status, String reason, String message, Instant lastTransitionTime) {
    }

    /** One entry of the timeline. */
    record EventView(Instant at, String type, String status, String reason, String message) {
    }
}
