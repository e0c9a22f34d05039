-- Placement: where an admitted workload runs. exclusive_topology is the JobSet's
-- alpha.jobset.sigs.k8s.io/exclusive-topology annotation (one whole node pool per replica when it
-- names cloud.google.com/gke-nodepool); cluster is the cluster its pools belong to.
ALTER TABLE workload ADD COLUMN exclusive_topology text;
ALTER TABLE workload ADD COLUMN cluster text;
CREATE INDEX workload_cluster_idx ON workload (cluster) WHERE cluster IS NOT NULL;
