-- The node pools a cluster provisioned for a workload's ProvisioningRequest, as the cluster's agent reports them with
-- the request's conditions (the whole list of a cluster replaced at each report). While a row is here, placement
-- gives the pool to that workload alone: another workload must not take the capacity it asked for.
CREATE TABLE provisioned_node_pool (
    cluster      text NOT NULL,
    pool         text NOT NULL,
    workload_uid uuid NOT NULL,
    request      text NOT NULL,
    PRIMARY KEY (cluster, pool)
);
