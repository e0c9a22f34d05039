-- A pending workload's position in its queues without counting everything ahead of it. A position counted the
-- pending workloads ahead (every one of them read, its row fetched to see its state and active flag), so the
-- answer to a submission into a queue 30,000 deep read 60,000 rows (its ClusterQueue and its LocalQueue), and a
-- page of the workload list a hundred times that. With a queue's pending count kept by the counters, a workload
-- near the end of its queue counts what is behind it instead:
--   ahead = (pending or evicted, active, in the queue) - 1 - (pending or evicted, active, behind it)
--           - (evicted, active, ahead of it)
-- and evicted workloads are few. The ClusterQueue counters exist (V8, V27); this adds the LocalQueue's, kept by
-- the same triggers: its pending count is the workloads of the LocalQueue (namespace and queue name) that are
-- Pending or Evicted and active, whatever ClusterQueue they are in (none while their LocalQueue is missing).
CREATE TABLE local_queue_workload_count (
    namespace  k8s_namespace NOT NULL,
    queue_name k8s_name      NOT NULL,
    pending    bigint        NOT NULL DEFAULT 0,
    PRIMARY KEY (namespace, queue_name)
);

INSERT INTO local_queue_workload_count (namespace, queue_name, pending)
SELECT namespace, queue_name, count(*) FILTER (WHERE state IN ('Pending', 'Evicted') AND active)
FROM workload WHERE queue_name IS NOT NULL GROUP BY namespace, queue_name;

-- Empty between statements (V27), so the columns are added to an empty table.
ALTER TABLE cluster_queue_workload_count_change
    ALTER COLUMN cluster_queue DROP NOT NULL,
    ADD COLUMN namespace text,
    ADD COLUMN queue_name text;

CREATE OR REPLACE FUNCTION count_cluster_queue_workloads() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND (OLD.cluster_queue IS NOT NULL OR OLD.queue_name IS NOT NULL) THEN
        INSERT INTO cluster_queue_workload_count_change (cluster_queue, namespace, queue_name, pending, admitted)
        VALUES (OLD.cluster_queue, OLD.namespace, OLD.queue_name,
                -(OLD.state IN ('Pending', 'Evicted') AND OLD.active)::int,
                -(OLD.state IN ('Admitted', 'Running'))::int);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND (NEW.cluster_queue IS NOT NULL OR NEW.queue_name IS NOT NULL) THEN
        INSERT INTO cluster_queue_workload_count_change (cluster_queue, namespace, queue_name, pending, admitted)
        VALUES (NEW.cluster_queue, NEW.namespace, NEW.queue_name,
                (NEW.state IN ('Pending', 'Evicted') AND NEW.active)::int,
                (NEW.state IN ('Admitted', 'Running'))::int);
    END IF;
    RETURN NULL;
END $$;

-- Each counter row once per statement, in key order; a LocalQueue's row only when its pending count moved.
CREATE OR REPLACE FUNCTION fold_cluster_queue_workload_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    WITH folded AS (DELETE FROM cluster_queue_workload_count_change RETURNING *),
    cluster_queues AS (
        INSERT INTO cluster_queue_workload_count AS c (cluster_queue, pending, admitted)
        SELECT cluster_queue, sum(pending), sum(admitted) FROM folded WHERE cluster_queue IS NOT NULL
        GROUP BY cluster_queue ORDER BY cluster_queue
        ON CONFLICT (cluster_queue) DO UPDATE
            SET pending = c.pending + EXCLUDED.pending, admitted = c.admitted + EXCLUDED.admitted)
    INSERT INTO local_queue_workload_count AS l (namespace, queue_name, pending)
    SELECT namespace, queue_name, sum(pending) FROM folded WHERE queue_name IS NOT NULL
    GROUP BY namespace, queue_name HAVING sum(pending) <> 0 ORDER BY namespace, queue_name
    ON CONFLICT (namespace, queue_name) DO UPDATE SET pending = l.pending + EXCLUDED.pending;
    RETURN NULL;
END $$;

-- The evicted workloads of a queue in queue order, to take them out of what the counters count.
CREATE INDEX workload_evicted_order_idx ON workload (cluster_queue, priority DESC, queue_timestamp, uid)
    WHERE state = 'Evicted';
CREATE INDEX workload_local_queue_evicted_idx ON workload (namespace, queue_name, priority DESC, queue_timestamp, uid)
    WHERE state = 'Evicted';
