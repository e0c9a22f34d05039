-- Workloads without a queue name (priority-only mode), highest priority first: the console's
-- "without a queue" list reads the head of this index.
CREATE INDEX workload_priority_only_idx ON workload (priority DESC, queue_timestamp, uid)
    WHERE queue_name IS NULL AND state IN ('Pending', 'Admitted', 'Running', 'Evicted');
