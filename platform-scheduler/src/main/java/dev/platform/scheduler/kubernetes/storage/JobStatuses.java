package dev.platform.scheduler.kubernetes.storage;

import dev.platform.scheduler.kubernetes.registry.Objects;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadState;
import dev.platform.scheduler.workload.WorkloadStatus;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JobSet's or a Job's status as its controller reports it, from the platform's workload state: suspended until
 * admitted (as under Kueue), then running, then completed or failed; restarts counted as JobSet counts them.
 */
final class JobStatuses {

    private final String kind;

    JobStatuses(String kind) {
        this.kind = kind;
    }

    Map<String, Object> of(WorkloadRow row, WorkloadStatus status) {
        return "Job".equals(kind) ? job(row) : jobSet(row);
    }

    private static Map<String, Object> jobSet(WorkloadRow row) {
        Map<String, Object> status = new LinkedHashMap<>();
        List<Map<String, Object>> conditions = new ArrayList<>();
        WorkloadState state = row.state();
        if (state == WorkloadState.Finished) {
            conditions.add(condition("Completed", "True", "AllJobsCompleted", "jobset completed successfully",
                    row.finishedAt()));
            status.put("terminalState", "Completed");
        } else if (state == WorkloadState.Failed) {
            conditions.add(condition("Failed", "True", "FailedJobs", "jobset failed", row.finishedAt()));
            status.put("terminalState", "Failed");
        } else if (!state.holdsQuota()) {
            conditions.add(condition("Suspended", "True", "SuspendedJobs", "jobset is suspended", row.createdAt()));
        } else {
            conditions.add(condition("Suspended", "False", "ResumeJobs", "jobset is resumed", row.admittedAt()));
        }
        status.put("conditions", conditions);
        status.put("restarts", row.restarts());
        return status;
    }

    private static Map<String, Object> job(WorkloadRow row) {
        Map<String, Object> status = new LinkedHashMap<>();
        List<Map<String, Object>> conditions = new ArrayList<>();
        WorkloadState state = row.state();
        if (state == WorkloadState.Finished) {
            conditions.add(jobCondition("Complete", "True", null, null, row.finishedAt()));
        } else if (state == WorkloadState.Failed) {
            conditions.add(jobCondition("Failed", "True", "BackoffLimitExceeded", "Job has reached the specified backoff"
                    + " limit", row.finishedAt()));
        } else if (!state.holdsQuota()) {
            conditions.add(jobCondition("Suspended", "True", "JobSuspended", "Job suspended", row.createdAt()));
        }
        if (!conditions.isEmpty()) {
            status.put("conditions", conditions);
        }
        if (row.admittedAt() != null) {
            status.put("startTime", Objects.timestamp(row.admittedAt()));
        }
        if (state == WorkloadState.Finished) {
            status.put("completionTime", Objects.timestamp(row.finishedAt()));
            status.put("succeeded", completions(row));
        } else if (state == WorkloadState.Running) {
            status.put("active", completions(row));
        }
        return status;
    }

    /** The pods of the Job's one pod set. */
    private static int completions(WorkloadRow row) {
        return row.podSets().isEmpty() ? 1 : row.podSets().get(0).count();
    }

    /** A batch/v1 JobCondition: a metav1.Condition's fields and lastProbeTime. */
    private static Map<String, Object> jobCondition(String type, String status, String reason, String message,
                                                    Instant at) {
        Map<String, Object> condition = condition(type, status, reason, message, at);
        if (at != null) {
            condition.put("lastProbeTime", Objects.timestamp(at));
        }
        return condition;
    }

    /** A metav1.Condition, as JobSet writes its conditions. */
    static Map<String, Object> condition(String type, String status, String reason, String message, Instant at) {
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", type);
        condition.put("status", status);
        if (at != null) {
            condition.put("lastTransitionTime", Objects.timestamp(at));
        }
        if (reason != null) {
            condition.put("reason", reason);
        }
        if (message != null) {
            condition.put("message", message);
        }
        return condition;
    }
}
