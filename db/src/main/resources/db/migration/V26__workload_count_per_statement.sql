-- The per-queue workload counters (V8, V21) are kept once per statement instead of once per row. A row trigger
-- updated a queue's counter row once for every workload of a statement: an admission cycle that admits 50,000
-- workloads in 100 queues wrote each counter row 500 times in one transaction, and each of those updates walked
-- the chain of versions the earlier ones left, so the cycle's one UPDATE spent most of its time there. Now each
-- statement sums its rows' changes per queue (transition tables) and writes each counter row once, in queue
-- order. The counts are the same: a row counts as pending when Pending or Evicted and active, as admitted when
-- Admitted or Running.
DROP TRIGGER workload_count_insert ON workload;
DROP TRIGGER workload_count_update ON workload;
DROP TRIGGER workload_count_delete ON workload;
DROP FUNCTION count_cluster_queue_workloads();

CREATE FUNCTION count_cluster_queue_workloads() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        -- A queue's counter row exists from its first workload on, as before.
        INSERT INTO cluster_queue_workload_count AS c (cluster_queue, pending, admitted)
        SELECT cluster_queue, count(*) FILTER (WHERE state IN ('Pending', 'Evicted') AND active),
               count(*) FILTER (WHERE state IN ('Admitted', 'Running'))
        FROM new_rows WHERE cluster_queue IS NOT NULL GROUP BY cluster_queue ORDER BY cluster_queue
        ON CONFLICT (cluster_queue) DO UPDATE
            SET pending = c.pending + EXCLUDED.pending, admitted = c.admitted + EXCLUDED.admitted;
    ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO cluster_queue_workload_count AS c (cluster_queue, pending, admitted)
        SELECT cluster_queue, sum(pending), sum(admitted) FROM (
            SELECT cluster_queue, -(state IN ('Pending', 'Evicted') AND active)::int AS pending,
                   -(state IN ('Admitted', 'Running'))::int AS admitted
            FROM old_rows WHERE cluster_queue IS NOT NULL
            UNION ALL
            SELECT cluster_queue, (state IN ('Pending', 'Evicted') AND active)::int,
                   (state IN ('Admitted', 'Running'))::int
            FROM new_rows WHERE cluster_queue IS NOT NULL) d
        GROUP BY cluster_queue HAVING sum(pending) <> 0 OR sum(admitted) <> 0 ORDER BY cluster_queue
        ON CONFLICT (cluster_queue) DO UPDATE
            SET pending = c.pending + EXCLUDED.pending, admitted = c.admitted + EXCLUDED.admitted;
    ELSE
        UPDATE cluster_queue_workload_count c SET pending = c.pending - d.pending, admitted = c.admitted - d.admitted
        FROM (SELECT cluster_queue, count(*) FILTER (WHERE state IN ('Pending', 'Evicted') AND active) AS pending,
                     count(*) FILTER (WHERE state IN ('Admitted', 'Running')) AS admitted
              FROM old_rows WHERE cluster_queue IS NOT NULL GROUP BY cluster_queue) d
        WHERE c.cluster_queue = d.cluster_queue AND (d.pending <> 0 OR d.admitted <> 0);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER workload_count_insert AFTER INSERT ON workload REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_cluster_queue_workloads();
CREATE TRIGGER workload_count_update AFTER UPDATE ON workload REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_cluster_queue_workloads();
CREATE TRIGGER workload_count_delete AFTER DELETE ON workload REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_cluster_queue_workloads();
