-- Kueue's spec.active: a workload set inactive (by its manifest, a merge patch or the stop action) holds no
-- quota and is not queued until activated again. IF NOT EXISTS: the pods-ready migration adds the same
-- column for the deactivations the leader makes itself; whichever runs first creates it.
ALTER TABLE workload ADD COLUMN IF NOT EXISTS active boolean NOT NULL DEFAULT true;

-- GET /api/v1/workloads across namespaces (Ops and Admin: all of them), newest first, keyset-paged.
CREATE INDEX workload_list_idx ON workload (created_at DESC, uid DESC);
