package dev.platform.api.agent;

public enum CommandType {
    /** create the JobSet from the stored manifest, pinned to the assigned node pools. */
    START,
    /** suspend the JobSet and evict its pods; the JobSet stays. */
    STOP,
    /** hotswap: stop, wait until every old pod is gone (BlockingRecreate), start on the new pools. */
    RESTART,
    /** delete the JobSet; sent only when the workload is cancelled or finished. */
    DELETE
}
