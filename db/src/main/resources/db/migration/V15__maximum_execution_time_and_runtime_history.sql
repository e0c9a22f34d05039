-- Kueue's maximum execution time of a workload, in seconds (a Workload's spec.maximumExecutionTimeSeconds,
-- a Job's or JobSet's label kueue.x-k8s.io/max-exec-time-seconds); null when unlimited. The wait-time
-- forecast takes it as an upper bound of the workload's runtime.
ALTER TABLE workload ADD COLUMN maximum_execution_time_seconds int
    CHECK (maximum_execution_time_seconds IS NULL OR maximum_execution_time_seconds > 0);

-- The forecast's runtime history: finished workloads, most recently finished first, read once when a
-- replica takes leadership (the scheduling loop then adds each finish as it sees it).
CREATE INDEX workload_finished_history_idx ON workload (finished_at DESC, uid)
    WHERE state = 'Finished' AND admitted_at IS NOT NULL;
