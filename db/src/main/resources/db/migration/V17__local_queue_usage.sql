-- Admission fair sharing: what each LocalQueue consumed, as Kueue keeps it in the LocalQueue's
-- status.fairSharing.admissionFairSharingStatus. consumed_resources maps a resource to a decaying average of what
-- the LocalQueue's workloads held (summed over flavors) in milli-units, fractional; last_update is when it was last
-- updated. score is the usage score the leader orders the LocalQueue's pending workloads by (lower first; Infinity
-- for a weight of 0; null when not known): the visibility API's positions follow it in a ClusterQueue whose
-- admissionScope asks for admission fair sharing. Written by the leader when it changes, read when a leader builds
-- its state (so the history survives a restart and a change of leader) and by the REST API and the console of
-- every replica. Goes with its LocalQueue.
CREATE TABLE local_queue_usage (
    namespace          k8s_namespace NOT NULL,
    local_queue        k8s_name      NOT NULL,
    consumed_resources jsonb         NOT NULL CHECK (jsonb_typeof(consumed_resources) = 'object'),
    last_update        timestamptz   NOT NULL,
    score              double precision CHECK (score >= 0),
    PRIMARY KEY (namespace, local_queue),
    FOREIGN KEY (namespace, local_queue) REFERENCES local_queue (namespace, name) ON DELETE CASCADE
);
