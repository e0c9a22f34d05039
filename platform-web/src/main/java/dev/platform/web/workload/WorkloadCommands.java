package dev.platform.web.workload;

import dev.platform.api.identity.Caller;
/** What the workload page changes: cancelling, the same operation as {@code DELETE /api/v1/.../workloads/{name}}. */
public interface WorkloadCommands {

    /** Cancels as {@code caller}, who is named in the workload's timeline and the access audit. */
    Cancellation cancel(Caller caller, String namespace, String name);

    enum Cancellation { CANCELLED, ALREADY_FINISHED, NOT_FOUND }
}
