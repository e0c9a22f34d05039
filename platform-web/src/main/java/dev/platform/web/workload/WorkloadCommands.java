package dev.platform.web.workload;

/** What the workload page changes: cancelling, the same operation as {@code DELETE /api/v1/.../workloads/{name}}. */
public interface WorkloadCommands {

    Cancellation cancel(String namespace, String name);

    enum Cancellation { CANCELLED, ALREADY_FINISHED, NOT_FOUND }
}
