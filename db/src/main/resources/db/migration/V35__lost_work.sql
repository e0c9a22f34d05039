-- The work every eviction threw away, whatever evicted the workload: a preemption (also in preemption_event), a
-- hotswap, a drained queue, a deactivation, a pods-ready timeout, a node failure. One row per evicted workload with
-- lost work: its namespace and ClusterQueue at the time, Kueue's eviction reason (Preempted, PodsReadyTimeout, ...),
-- the reason the lost-work counters name (the preemption reason for a preemption, else the eviction reason), the time
-- the lost work counts from (the later of its last checkpoint and its admission) and the resource-seconds per
-- accelerator resource. No foreign key: a team's totals keep the work of workloads deleted since.
CREATE TABLE lost_work (
    id bigserial PRIMARY KEY,
    at timestamptz NOT NULL,
    workload_uid uuid NOT NULL,
    namespace text NOT NULL,
    name text NOT NULL,
    cluster_queue text,
    eviction text NOT NULL,
    reason text NOT NULL,
    since timestamptz NOT NULL,
    resource_seconds jsonb NOT NULL
);
-- A team's totals over the last day and week: a range of each of its namespaces, read from the index alone.
CREATE INDEX lost_work_namespace_at_idx ON lost_work (namespace, at) INCLUDE (resource_seconds);
-- Retention deletes the oldest first.
CREATE INDEX lost_work_at_idx ON lost_work (at);
