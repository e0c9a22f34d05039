-- The listing of every eviction's lost work (GET /api/v1/lostwork), newest first with keyset pagination on (at, id):
-- by ClusterQueue from this index; unfiltered and by namespace from the indexes V35 made.
CREATE INDEX lost_work_cluster_queue_at_idx ON lost_work (cluster_queue, at, id);
