-- The per-queue workload counters (V8, V21) are written once per statement instead of once per row. A row trigger
-- updated a queue's counter row once for every workload of a statement: an admission cycle that admits 50,000
-- workloads in 100 queues wrote each counter row 500 times in one transaction, and each of those updates walked
-- the chain of versions the earlier ones left, so the cycle's one UPDATE spent most of its time there. Now the row
-- trigger (still only when a row's state, queue or active flag changes) appends the row's change to
-- cluster_queue_workload_count_change, and a statement trigger folds what its own transaction appended into the
-- counters, each counter row once, in queue order, and empties it. A transaction sees no other's uncommitted
-- changes and leaves none behind, so the table is empty between statements; it is unlogged for that reason.
-- The counts are the same: a row counts as pending when Pending or Evicted and active, as admitted when Admitted
-- or Running.
CREATE UNLOGGED TABLE cluster_queue_workload_count_change (
    cluster_queue k8s_name NOT NULL,
    pending       integer  NOT NULL,
    admitted      integer  NOT NULL
);

CREATE OR REPLACE FUNCTION count_cluster_queue_workloads() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.cluster_queue IS NOT NULL THEN
        INSERT INTO cluster_queue_workload_count_change (cluster_queue, pending, admitted)
        VALUES (OLD.cluster_queue, -(OLD.state IN ('Pending', 'Evicted') AND OLD.active)::int,
                -(OLD.state IN ('Admitted', 'Running'))::int);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.cluster_queue IS NOT NULL THEN
        INSERT INTO cluster_queue_workload_count_change (cluster_queue, pending, admitted)
        VALUES (NEW.cluster_queue, (NEW.state IN ('Pending', 'Evicted') AND NEW.active)::int,
                (NEW.state IN ('Admitted', 'Running'))::int);
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION fold_cluster_queue_workload_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    WITH folded AS (DELETE FROM cluster_queue_workload_count_change RETURNING *)
    INSERT INTO cluster_queue_workload_count AS c (cluster_queue, pending, admitted)
    SELECT cluster_queue, sum(pending), sum(admitted) FROM folded GROUP BY cluster_queue ORDER BY cluster_queue
    ON CONFLICT (cluster_queue) DO UPDATE
        SET pending = c.pending + EXCLUDED.pending, admitted = c.admitted + EXCLUDED.admitted;
    RETURN NULL;
END $$;

-- After-row triggers run at the end of their statement, before its after-statement triggers.
CREATE TRIGGER workload_count_fold AFTER INSERT OR DELETE OR UPDATE OF state, cluster_queue, active ON workload
    FOR EACH STATEMENT EXECUTE FUNCTION fold_cluster_queue_workload_counts();
