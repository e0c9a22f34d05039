-- Quota held by admitted workloads, one row per (workload, flavor, resource), written in the
-- admission's transaction and deleted when the workload releases its quota. ClusterQueue usage
-- is then a grouped sum over an index, whatever the number of workloads.
CREATE TABLE workload_usage (
    workload_uid  uuid     NOT NULL REFERENCES workload (uid) ON DELETE CASCADE,
    cluster_queue k8s_name NOT NULL,
    flavor        k8s_name NOT NULL,
    resource      text     NOT NULL,
    amount        quantity NOT NULL,
    PRIMARY KEY (workload_uid, flavor, resource)
);
CREATE INDEX workload_usage_queue_idx ON workload_usage (cluster_queue, flavor, resource);
