-- Pending and admitted workloads per ClusterQueue, kept by triggers so the console and the API
-- read two numbers per queue instead of counting a hundred thousand rows. Workload writers are
-- already serialised (see V2), so the counter rows add no new contention.
CREATE TABLE cluster_queue_workload_count (
    cluster_queue k8s_name PRIMARY KEY,
    pending       bigint   NOT NULL DEFAULT 0,
    admitted      bigint   NOT NULL DEFAULT 0
);

INSERT INTO cluster_queue_workload_count (cluster_queue, pending, admitted)
SELECT cluster_queue,
       count(*) FILTER (WHERE state IN ('Pending', 'Evicted')),
       count(*) FILTER (WHERE state IN ('Admitted', 'Running'))
FROM workload WHERE cluster_queue IS NOT NULL GROUP BY cluster_queue;

CREATE FUNCTION count_cluster_queue_workloads() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.cluster_queue IS NOT NULL THEN
        UPDATE cluster_queue_workload_count
        SET pending = pending - (OLD.state IN ('Pending', 'Evicted'))::int,
            admitted = admitted - (OLD.state IN ('Admitted', 'Running'))::int
        WHERE cluster_queue = OLD.cluster_queue;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.cluster_queue IS NOT NULL THEN
        INSERT INTO cluster_queue_workload_count AS c (cluster_queue, pending, admitted)
        VALUES (NEW.cluster_queue, (NEW.state IN ('Pending', 'Evicted'))::int, (NEW.state IN ('Admitted', 'Running'))::int)
        ON CONFLICT (cluster_queue) DO UPDATE
            SET pending = c.pending + EXCLUDED.pending, admitted = c.admitted + EXCLUDED.admitted;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER workload_count_insert AFTER INSERT ON workload
    FOR EACH ROW EXECUTE FUNCTION count_cluster_queue_workloads();
CREATE TRIGGER workload_count_delete AFTER DELETE ON workload
    FOR EACH ROW EXECUTE FUNCTION count_cluster_queue_workloads();
CREATE TRIGGER workload_count_update AFTER UPDATE OF state, cluster_queue ON workload
    FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.cluster_queue IS DISTINCT FROM NEW.cluster_queue)
    EXECUTE FUNCTION count_cluster_queue_workloads();
