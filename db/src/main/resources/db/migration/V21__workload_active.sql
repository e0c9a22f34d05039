-- Kueue's spec.active: a workload set inactive (by its manifest, a merge patch or the stop action) holds no
-- quota and is not queued until activated again. IF NOT EXISTS: the pods-ready migration adds the same
-- column for the deactivations the leader makes itself; whichever runs first creates it.
ALTER TABLE workload ADD COLUMN IF NOT EXISTS active boolean NOT NULL DEFAULT true;

-- GET /api/v1/workloads across namespaces (Ops and Admin: all of them), newest first, keyset-paged.
CREATE INDEX workload_list_idx ON workload (created_at DESC, uid DESC);

-- A ClusterQueue's pending count (its status pendingWorkloads, as Kueue counts it) leaves deactivated workloads
-- out: they are in no queue. The counting trigger of V8 also follows the active flag.
CREATE OR REPLACE FUNCTION count_cluster_queue_workloads() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.cluster_queue IS NOT NULL THEN
        UPDATE cluster_queue_workload_count
        SET pending = pending - (OLD.state IN ('Pending', 'Evicted') AND OLD.active)::int,
            admitted = admitted - (OLD.state IN ('Admitted', 'Running'))::int
        WHERE cluster_queue = OLD.cluster_queue;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.cluster_queue IS NOT NULL THEN
        INSERT INTO cluster_queue_workload_count AS c (cluster_queue, pending, admitted)
        VALUES (NEW.cluster_queue, (NEW.state IN ('Pending', 'Evicted') AND NEW.active)::int,
                (NEW.state IN ('Admitted', 'Running'))::int)
        ON CONFLICT (cluster_queue) DO UPDATE
            SET pending = c.pending + EXCLUDED.pending, admitted = c.admitted + EXCLUDED.admitted;
    END IF;
    RETURN NULL;
END $$;

DROP TRIGGER workload_count_update ON workload;
CREATE TRIGGER workload_count_update AFTER UPDATE OF state, cluster_queue, active ON workload
    FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.cluster_queue IS DISTINCT FROM NEW.cluster_queue
                       OR OLD.active IS DISTINCT FROM NEW.active)
    EXECUTE FUNCTION count_cluster_queue_workloads();

UPDATE cluster_queue_workload_count c
SET pending = (SELECT count(*) FROM workload w
               WHERE w.cluster_queue = c.cluster_queue AND w.state IN ('Pending', 'Evicted') AND w.active);
