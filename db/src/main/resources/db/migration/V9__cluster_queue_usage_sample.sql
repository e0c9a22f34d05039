-- Usage over time: the leader samples every ClusterQueue's used quota per flavor and resource
-- (platform.console.usage-sample-interval); samples older than the retention are deleted.
CREATE TABLE cluster_queue_usage_sample (
    cluster_queue k8s_name    NOT NULL,
    at            timestamptz NOT NULL,
    flavor        k8s_name    NOT NULL,
    resource      text        NOT NULL,
    used          quantity    NOT NULL,
    nominal_quota quantity    NOT NULL,
    PRIMARY KEY (cluster_queue, at, flavor, resource)
);
CREATE INDEX cluster_queue_usage_sample_at_idx ON cluster_queue_usage_sample (at);
