-- A workload that waits for a reason only a configuration change removes (PendingReason.inadmissible() in the
-- code: its LocalQueue or ClusterQueue missing, no flavor or not even the whole quota could hold it, its namespace
-- not selected) has no queue position and counts ahead of no one. Positions subtract those ahead of a workload;
-- this index holds only them, so the subtraction reads a handful of rows and the loop's writes of ordinary reasons
-- (a whole backlog at once) do not touch it.
CREATE INDEX workload_pending_reason_inadmissible_idx ON workload_pending_reason (workload_uid)
    WHERE reason IN ('LocalQueueNotFound', 'ClusterQueueInactive', 'ExceedsMaxQuota', 'NoMatchingFlavor',
                     'InadmissibleNamespace');
