-- The cluster a workload was submitted in, when it was applied to a cluster (the agent's webhook suspended it, or the
-- agent caught it running unadmitted) rather than through the platform, and the uid of that JobSet: the agent of that
-- cluster writes the platform's decisions about it as Events on that very JobSet.
CREATE TABLE workload_origin (
    workload_uid uuid PRIMARY KEY REFERENCES workload (uid) ON DELETE CASCADE,
    cluster      text NOT NULL,
    jobset_uid   text NOT NULL
);
CREATE INDEX workload_origin_cluster_idx ON workload_origin (cluster);
