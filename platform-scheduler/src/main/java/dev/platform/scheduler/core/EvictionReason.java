package dev.platform.scheduler.core;

/**
 * Why a cycle takes quota away from an admitted workload outside preemption: Kueue's reasons of the Evicted
 * condition (apis/kueue/v1beta2/workload_types.go).
 */
public enum EvictionReason {
    /** Its ClusterQueue's stopPolicy is HoldAndDrain. */
    ClusterQueueStopped,
    /** Its LocalQueue's stopPolicy is HoldAndDrain. */
    LocalQueueStopped,
    /** Its spec.active is false: evicted and kept, not requeued, until it is activated again. */
    Deactivated
}
