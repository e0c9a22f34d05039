-- Kueue's waitForPodsReady and maximum execution time.
--
-- active: Kueue's spec.active. The leader deactivates a workload (false) when it exceeds its maximum execution
-- time or its requeuing limit; an inactive workload holds no quota and is not queued until activated again.
-- requeue_count, requeue_at: Kueue's status.requeueState {count, requeueAt}: how often the workload was requeued
-- after a PodsReady timeout or a START that failed transiently, and when its backoff ends (null: not backing off).
-- pods_ready, pods_ready_changed_at: Kueue's PodsReady condition while the workload holds quota in a cluster:
-- whether every pod is ready, and when that last changed (null: not yet ready since admission, so the
-- timeout counts from admitted_at; set: the recovery timeout counts from it).
ALTER TABLE workload ADD COLUMN active boolean NOT NULL DEFAULT true;
ALTER TABLE workload ADD COLUMN requeue_count int NOT NULL DEFAULT 0 CHECK (requeue_count >= 0);
ALTER TABLE workload ADD COLUMN requeue_at timestamptz;
ALTER TABLE workload ADD COLUMN pods_ready boolean NOT NULL DEFAULT false;
ALTER TABLE workload ADD COLUMN pods_ready_changed_at timestamptz;

-- The agent's count of ready pods (Ready condition True); null from agents that do not report it.
ALTER TABLE cluster_workload ADD COLUMN pods_ready int CHECK (pods_ready IS NULL OR pods_ready >= 0);
