-- The scheduler side of the agent protocol (docs/agent.md).

-- A FULL report's agent and the instant it stamped on its last report: a restarted agent process
-- keeps its agentId (the pod name) but counts its sequence from 1 again, which its later
-- sentAt tells apart from a replayed report.
ALTER TABLE cluster ADD COLUMN last_report_sent_at timestamptz;

-- AgentCommand carries the JobSet's namespace and name; STOP and DELETE have no payload and a
-- command may have no expiry.
ALTER TABLE agent_command ADD COLUMN namespace k8s_namespace;
ALTER TABLE agent_command ADD COLUMN name k8s_name;
ALTER TABLE agent_command ALTER COLUMN payload DROP NOT NULL;
ALTER TABLE agent_command ALTER COLUMN expires_at DROP NOT NULL;
-- Delivery without `after` starts above the last acknowledged id; pending ones per cluster.
CREATE INDEX agent_command_unacknowledged_idx ON agent_command (cluster, seq)
    WHERE state IN ('Pending', 'Delivered');

-- The latest status an agent reported for each platform workload in its cluster: where its pods
-- run (node pools), for the inventory view; replaced by a FULL report, merged by a DELTA.
CREATE TABLE cluster_workload (
    cluster        k8s_name    NOT NULL REFERENCES cluster (name) ON DELETE CASCADE,
    workload_uid   uuid        NOT NULL REFERENCES workload (uid) ON DELETE CASCADE,
    phase          text        NOT NULL
        CHECK (phase IN ('PENDING', 'RUNNING', 'SUSPENDED', 'SUCCEEDED', 'FAILED', 'DELETED')),
    pods_pending   int         NOT NULL DEFAULT 0 CHECK (pods_pending >= 0),
    pods_running   int         NOT NULL DEFAULT 0 CHECK (pods_running >= 0),
    pods_succeeded int         NOT NULL DEFAULT 0 CHECK (pods_succeeded >= 0),
    pods_failed    int         NOT NULL DEFAULT 0 CHECK (pods_failed >= 0),
    nodes          text[]      NOT NULL DEFAULT '{}',
    node_pools     text[]      NOT NULL DEFAULT '{}',
    reported_at    timestamptz NOT NULL,
    PRIMARY KEY (cluster, workload_uid)
);
CREATE INDEX cluster_workload_workload_idx ON cluster_workload (workload_uid);
CREATE INDEX cluster_workload_pools_idx ON cluster_workload USING gin (node_pools);
