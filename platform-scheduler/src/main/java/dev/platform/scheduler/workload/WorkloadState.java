package dev.platform.scheduler.workload;

/** The lifecycle of a workload. */
public enum WorkloadState {
    /** Waiting in its queue (also after being preempted and requeued). */
    Pending,
    /** Quota reserved and admitted; not yet seen running in a cluster. */
    Admitted,
    /** An agent reports its pods running. */
    Running,
    /** Being stopped in a cluster after preemption or disruption; requeued once its pods are gone. */
    Evicted,
    Finished,
    Failed;

    public boolean holdsQuota() {
        return this == Admitted || this == Running;
    }

    public boolean isTerminal() {
        return this == Finished || this == Failed;
    }
}
