-- Who submitted a workload: the caller of POST /namespaces/{ns}/workloads or POST /manifests. NULL for a
-- workload adopted from a cluster (created there, not through the platform) and for those stored before this
-- column existed: the submitter is unknown.
ALTER TABLE workload ADD COLUMN submitted_by text;
