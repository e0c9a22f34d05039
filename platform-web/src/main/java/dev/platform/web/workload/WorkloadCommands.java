package dev.platform.web.workload;

import dev.platform.api.identity.Caller;
/**
 * What the workload page changes: cancelling, the same operation as {@code DELETE /api/v1/.../workloads/{name}},
 * and stopping or resuming, the same as {@code POST /api/v1/.../workloads/{name}/stop} and {@code resume}.
 */
public interface WorkloadCommands {

    /** Cancels as {@code caller}, who is named in the workload's timeline and the access audit. */
    Cancellation cancel(Caller caller, String namespace, String name);

    /** Sets spec.active as {@code caller}, who is named in the workload's timeline. */
    Cancellation setActive(Caller caller, String namespace, String name, boolean active);

    /** What became of a cancel, stop or resume: done, too late (it had finished), or no such workload. */
    enum Cancellation { CANCELLED, ALREADY_FINISHED, NOT_FOUND }
}
