package dev.platform.scheduler.core.admissioncheck;

/** Kueue's admission check states ({@code status.admissionChecks[].state}). */
public enum CheckState {
    /** Not decided yet; a workload with a Pending check keeps its quota reservation and is not admitted. */
    Pending,
    /** Passed; once every check is Ready the workload is admitted. */
    Ready,
    /** Failed for now: the workload's quota is released and it is requeued after a backoff. */
    Retry,
    /** Failed for good: the workload is deactivated. */
    Rejected
}
