-- History retention (platform.retention.*): the leader deletes rows older than a cutoff in batches,
-- oldest first; these indexes let each batch find its rows without scanning the table.
CREATE INDEX workload_event_at_idx ON workload_event (at);
CREATE INDEX workload_finished_at_idx ON workload (finished_at) WHERE state IN ('Finished', 'Failed');
