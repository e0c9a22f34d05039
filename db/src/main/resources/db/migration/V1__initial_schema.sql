-- The platform's whole state. PostgreSQL is the source of truth:
-- constraints live here, not only in Java; history tables are append-only and indexed
-- for keyset pagination by (time, id).

-- Names: Kubernetes DNS-1123 subdomain (cluster-scoped objects) and label (namespaces).
CREATE DOMAIN k8s_name AS text
    CHECK (VALUE ~ '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$' AND length(VALUE) <= 253);
CREATE DOMAIN k8s_namespace AS text
    CHECK (VALUE ~ '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' AND length(VALUE) <= 63);
-- Resource quantities are stored exactly: the value as numeric (never floating point) beside the text.
CREATE DOMAIN quantity AS numeric CHECK (VALUE >= 0);

------------------------------------------------------------------------------------------
-- Configuration (Kueue objects and priority classes). spec holds the decoded object with
-- defaults applied; generation counts changes.
------------------------------------------------------------------------------------------

CREATE TABLE resource_flavor (
    name        k8s_name    PRIMARY KEY,
    spec        jsonb       NOT NULL,
    generation  bigint      NOT NULL DEFAULT 1 CHECK (generation > 0),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Cohort objects. A cohort named by a ClusterQueue without an object exists implicitly,
-- so cluster_queue.cohort is deliberately not a foreign key.
CREATE TABLE cohort (
    name        k8s_name    PRIMARY KEY,
    parent_name k8s_name    CHECK (parent_name IS NULL OR parent_name <> name),
    spec        jsonb       NOT NULL,
    generation  bigint      NOT NULL DEFAULT 1 CHECK (generation > 0),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cohort_parent_idx ON cohort (parent_name) WHERE parent_name IS NOT NULL;

CREATE TABLE cluster_queue (
    name              k8s_name    PRIMARY KEY,
    cohort            k8s_name,
    queueing_strategy text        NOT NULL CHECK (queueing_strategy IN ('StrictFIFO', 'BestEffortFIFO')),
    stop_policy       text        NOT NULL CHECK (stop_policy IN ('None', 'Hold', 'HoldAndDrain')),
    spec              jsonb       NOT NULL,
    generation        bigint      NOT NULL DEFAULT 1 CHECK (generation > 0),
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cluster_queue_cohort_idx ON cluster_queue (cohort) WHERE cohort IS NOT NULL;

-- Quota rows, one per (owner, flavor, resource), for set-based usage queries. The flavor is
-- not a foreign key: a queue naming a missing flavor is accepted and shown inactive (Kueue).
CREATE TABLE cluster_queue_quota (
    cluster_queue        k8s_name NOT NULL REFERENCES cluster_queue (name) ON DELETE CASCADE,
    group_index          int      NOT NULL CHECK (group_index BETWEEN 0 AND 15),
    flavor_index         int      NOT NULL CHECK (flavor_index >= 0),
    flavor               k8s_name NOT NULL,
    resource             text     NOT NULL CHECK (length(resource) BETWEEN 1 AND 316),
    nominal_quota        quantity NOT NULL,
    borrowing_limit      quantity,
    lending_limit        quantity,
    PRIMARY KEY (cluster_queue, flavor, resource),
    CHECK (lending_limit IS NULL OR lending_limit <= nominal_quota)
);
CREATE INDEX cluster_queue_quota_flavor_idx ON cluster_queue_quota (flavor);

CREATE TABLE cohort_quota (
    cohort          k8s_name NOT NULL REFERENCES cohort (name) ON DELETE CASCADE,
    group_index     int      NOT NULL CHECK (group_index BETWEEN 0 AND 15),
    flavor_index    int      NOT NULL CHECK (flavor_index >= 0),
    flavor          k8s_name NOT NULL,
    resource        text     NOT NULL CHECK (length(resource) BETWEEN 1 AND 316),
    nominal_quota   quantity NOT NULL,
    borrowing_limit quantity,
    lending_limit   quantity,
    PRIMARY KEY (cohort, flavor, resource),
    CHECK (lending_limit IS NULL OR lending_limit <= nominal_quota)
);
CREATE INDEX cohort_quota_flavor_idx ON cohort_quota (flavor);

-- A LocalQueue may name a ClusterQueue that does not exist yet (Kueue), so no foreign key.
CREATE TABLE local_queue (
    namespace     k8s_namespace NOT NULL,
    name          k8s_name      NOT NULL,
    cluster_queue k8s_name      NOT NULL,
    stop_policy   text          NOT NULL CHECK (stop_policy IN ('None', 'Hold', 'HoldAndDrain')),
    spec          jsonb         NOT NULL,
    generation    bigint        NOT NULL DEFAULT 1 CHECK (generation > 0),
    created_at    timestamptz   NOT NULL DEFAULT now(),
    updated_at    timestamptz   NOT NULL DEFAULT now(),
    PRIMARY KEY (namespace, name)
);
CREATE INDEX local_queue_cluster_queue_idx ON local_queue (cluster_queue);

-- PriorityClass (scheduling.k8s.io/v1) and WorkloadPriorityClass (kueue) share a table;
-- they are different kinds, so a name may exist once per kind.
CREATE TABLE priority_class (
    kind              text        NOT NULL CHECK (kind IN ('PriorityClass', 'WorkloadPriorityClass')),
    name              k8s_name    NOT NULL,
    value             int         NOT NULL,
    global_default    boolean     NOT NULL DEFAULT false,
    preemption_policy text        NOT NULL DEFAULT 'PreemptLowerPriority'
        CHECK (preemption_policy IN ('PreemptLowerPriority', 'Never')),
    spec              jsonb       NOT NULL,
    generation        bigint      NOT NULL DEFAULT 1 CHECK (generation > 0),
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kind, name),
    CHECK (kind = 'PriorityClass' OR (global_default = false AND preemption_policy = 'PreemptLowerPriority'))
);
-- At most one global default PriorityClass, as Kubernetes enforces.
CREATE UNIQUE INDEX priority_class_one_global_default ON priority_class (global_default) WHERE global_default;

-- Every configuration change, append-only.
CREATE TABLE config_audit (
    id          bigserial   PRIMARY KEY,
    at          timestamptz NOT NULL DEFAULT now(),
    actor       text        NOT NULL,
    kind        text        NOT NULL,
    namespace   text,
    name        text        NOT NULL,
    action      text        NOT NULL CHECK (action IN ('created', 'updated', 'deleted')),
    spec_before jsonb,
    spec_after  jsonb,
    CHECK ((action = 'created' AND spec_before IS NULL AND spec_after IS NOT NULL)
        OR (action = 'updated' AND spec_before IS NOT NULL AND spec_after IS NOT NULL)
        OR (action = 'deleted' AND spec_before IS NOT NULL AND spec_after IS NULL))
);
CREATE INDEX config_audit_at_idx ON config_audit (at DESC, id DESC);
CREATE INDEX config_audit_object_idx ON config_audit (kind, name, at DESC, id DESC);

------------------------------------------------------------------------------------------
-- Clusters and their inventory, as agents report it.
------------------------------------------------------------------------------------------

CREATE TABLE cluster (
    name               k8s_name    PRIMARY KEY,
    agent_identity     text,
    last_report_at     timestamptz,
    last_report_seq    bigint      NOT NULL DEFAULT 0 CHECK (last_report_seq >= 0),
    last_acked_command bigint      NOT NULL DEFAULT 0 CHECK (last_acked_command >= 0),
    created_at         timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE node_pool (
    cluster        k8s_name    NOT NULL REFERENCES cluster (name) ON DELETE CASCADE,
    name           text        NOT NULL CHECK (length(name) BETWEEN 1 AND 253),
    accelerator    text,
    topology       text,
    health         text        NOT NULL CHECK (health IN ('Healthy', 'Degraded', 'Unhealthy', 'Unknown')),
    health_reasons text[]      NOT NULL DEFAULT '{}',
    node_count     int         NOT NULL CHECK (node_count >= 0),
    chips_per_node int         NOT NULL DEFAULT 0 CHECK (chips_per_node >= 0),
    labels         jsonb       NOT NULL DEFAULT '{}',
    unhealthy_since timestamptz,
    updated_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (cluster, name)
);
CREATE INDEX node_pool_placement_idx ON node_pool (accelerator, topology, health);

CREATE TABLE node (
    cluster        k8s_name    NOT NULL,
    name           text        NOT NULL CHECK (length(name) BETWEEN 1 AND 253),
    node_pool      text        NOT NULL,
    health         text        NOT NULL CHECK (health IN ('Healthy', 'Degraded', 'Unhealthy', 'Unknown')),
    health_reasons text[]      NOT NULL DEFAULT '{}',
    allocatable    jsonb       NOT NULL DEFAULT '{}',
    capacity       jsonb       NOT NULL DEFAULT '{}',
    updated_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (cluster, name),
    FOREIGN KEY (cluster, node_pool) REFERENCES node_pool (cluster, name) ON DELETE CASCADE
);
CREATE INDEX node_pool_nodes_idx ON node (cluster, node_pool);

------------------------------------------------------------------------------------------
-- Workloads and their history.
------------------------------------------------------------------------------------------

CREATE TABLE workload (
    uid                 uuid          PRIMARY KEY,
    namespace           k8s_namespace NOT NULL,
    name                k8s_name      NOT NULL,
    kind                text          NOT NULL CHECK (kind IN ('JobSet', 'Job', 'Workload')),
    queue_name          k8s_name,
    cluster_queue       k8s_name,
    priority_class_name k8s_name,
    priority            int           NOT NULL DEFAULT 0,
    state               text          NOT NULL
        CHECK (state IN ('Pending', 'Admitted', 'Running', 'Evicted', 'Finished', 'Failed')),
    manifest            jsonb         NOT NULL,
    pod_sets            jsonb         NOT NULL,
    admission           jsonb,
    pending_reason      text,
    pending_message     text,
    -- FIFO order key; kept across evictions so a requeued workload keeps its place.
    queue_timestamp     timestamptz   NOT NULL,
    created_at          timestamptz   NOT NULL DEFAULT now(),
    admitted_at         timestamptz,
    finished_at         timestamptz,
    restarts            int           NOT NULL DEFAULT 0 CHECK (restarts >= 0),
    max_restarts        int           CHECK (max_restarts IS NULL OR max_restarts >= 0),
    idempotency_key     text,
    -- optimistic locking: every update checks and bumps it
    version             bigint        NOT NULL DEFAULT 0 CHECK (version >= 0),
    UNIQUE (namespace, name),
    CHECK ((state IN ('Admitted', 'Running')) = (admission IS NOT NULL) OR state IN ('Finished', 'Failed', 'Evicted'))
);
-- Pending heads per ClusterQueue in queue order: priority first, then FIFO, uid last.
CREATE INDEX workload_pending_order_idx ON workload (cluster_queue, priority DESC, queue_timestamp, uid)
    WHERE state IN ('Pending', 'Evicted');
CREATE INDEX workload_local_queue_pending_idx ON workload (namespace, queue_name, priority DESC, queue_timestamp, uid)
    WHERE state IN ('Pending', 'Evicted');
CREATE INDEX workload_admitted_idx ON workload (cluster_queue) WHERE state IN ('Admitted', 'Running');
-- Listing by namespace with keyset pagination (newest first).
CREATE INDEX workload_namespace_list_idx ON workload (namespace, created_at DESC, uid DESC);
CREATE INDEX workload_state_list_idx ON workload (state, created_at DESC, uid DESC);
CREATE UNIQUE INDEX workload_idempotency_idx ON workload (namespace, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- Condition transitions and other timeline entries, append-only.
CREATE TABLE workload_event (
    id           bigserial   PRIMARY KEY,
    workload_uid uuid        NOT NULL REFERENCES workload (uid) ON DELETE CASCADE,
    at           timestamptz NOT NULL DEFAULT now(),
    type         text        NOT NULL,
    status       text        NOT NULL CHECK (status IN ('True', 'False', 'Unknown')),
    reason       text        NOT NULL,
    message      text        NOT NULL DEFAULT ''
);
CREATE INDEX workload_event_timeline_idx ON workload_event (workload_uid, at, id);

-- Every preemption: who, whom, why. Append-only; names are copied so history outlives workloads.
CREATE TABLE preemption_event (
    id                      bigserial     PRIMARY KEY,
    at                      timestamptz   NOT NULL DEFAULT now(),
    reason                  text          NOT NULL CHECK (reason IN ('InClusterQueue', 'InCohortReclamation',
        'InCohortReclaimWhileBorrowing', 'InCohortFairSharing', 'Hotswap', 'PriorityPreemption')),
    message                 text          NOT NULL,
    preemptor_uid           uuid          NOT NULL,
    preemptor_namespace     k8s_namespace NOT NULL,
    preemptor_name          k8s_name      NOT NULL,
    preemptor_cluster_queue k8s_name,
    preemptor_priority      int           NOT NULL,
    victim_uid              uuid          NOT NULL,
    victim_namespace        k8s_namespace NOT NULL,
    victim_name             k8s_name      NOT NULL,
    victim_cluster_queue    k8s_name,
    victim_priority         int           NOT NULL,
    CHECK (preemptor_uid <> victim_uid)
);
CREATE INDEX preemption_event_at_idx ON preemption_event (at DESC, id DESC);
CREATE INDEX preemption_event_victim_cq_idx ON preemption_event (victim_cluster_queue, at DESC, id DESC);
CREATE INDEX preemption_event_preemptor_cq_idx ON preemption_event (preemptor_cluster_queue, at DESC, id DESC);
CREATE INDEX preemption_event_victim_ns_idx ON preemption_event (victim_namespace, at DESC, id DESC);
CREATE INDEX preemption_event_reason_idx ON preemption_event (reason, at DESC, id DESC);
CREATE INDEX preemption_event_victim_uid_idx ON preemption_event (victim_uid);
CREATE INDEX preemption_event_preemptor_uid_idx ON preemption_event (preemptor_uid);

-- Hotswap: a disruption under a running workload and its recovery, with MTTR phases.
CREATE TABLE hotswap_event (
    id                    bigserial   PRIMARY KEY,
    cluster               k8s_name    NOT NULL,
    node_pool             text        NOT NULL,
    nodes                 text[]      NOT NULL DEFAULT '{}',
    reason                text        NOT NULL,
    disrupted_uid         uuid        NOT NULL,
    disrupted_namespace   k8s_namespace NOT NULL,
    disrupted_name        k8s_name    NOT NULL,
    victims               jsonb       NOT NULL DEFAULT '[]',
    replacement_pools     text[]      NOT NULL DEFAULT '{}',
    outcome               text        NOT NULL CHECK (outcome IN ('InProgress', 'Recovered', 'Requeued', 'Failed')),
    detected_at           timestamptz NOT NULL,
    decided_at            timestamptz,
    evictions_done_at     timestamptz,
    running_at            timestamptz,
    CHECK (decided_at IS NULL OR decided_at >= detected_at),
    CHECK (running_at IS NULL OR running_at >= detected_at)
);
CREATE INDEX hotswap_event_detected_idx ON hotswap_event (detected_at DESC, id DESC);
CREATE INDEX hotswap_event_disrupted_idx ON hotswap_event (disrupted_uid);
CREATE INDEX hotswap_event_pool_idx ON hotswap_event (cluster, node_pool, detected_at DESC);

------------------------------------------------------------------------------------------
-- Agent command outbox: written in the decision's transaction, delivered at least once,
-- acknowledged by seq; the agent's effect is idempotent by seq.
------------------------------------------------------------------------------------------

CREATE TABLE agent_command (
    seq            bigserial   PRIMARY KEY,
    cluster        k8s_name    NOT NULL REFERENCES cluster (name) ON DELETE CASCADE,
    type           text        NOT NULL CHECK (type IN ('START', 'STOP', 'RESTART', 'DELETE')),
    workload_uid   uuid        NOT NULL,
    payload        jsonb       NOT NULL,
    state          text        NOT NULL DEFAULT 'Pending'
        CHECK (state IN ('Pending', 'Delivered', 'Succeeded', 'Failed', 'Refused')),
    attempts       int         NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    created_at     timestamptz NOT NULL DEFAULT now(),
    expires_at     timestamptz NOT NULL,
    acked_at       timestamptz,
    result_message text,
    CHECK (expires_at > created_at)
);
CREATE INDEX agent_command_delivery_idx ON agent_command (cluster, seq);
CREATE INDEX agent_command_workload_idx ON agent_command (workload_uid, seq);

------------------------------------------------------------------------------------------
-- Leadership fencing and credentials.
------------------------------------------------------------------------------------------

-- One row. Each decision transaction checks that its epoch is still the current one.
CREATE TABLE scheduler_leader (
    id          int         PRIMARY KEY CHECK (id = 1),
    epoch       bigint      NOT NULL CHECK (epoch >= 0),
    holder      text        NOT NULL,
    acquired_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE team (
    name       k8s_name    PRIMARY KEY,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE team_namespace (
    team      k8s_name      NOT NULL REFERENCES team (name) ON DELETE CASCADE,
    namespace k8s_namespace NOT NULL UNIQUE,
    PRIMARY KEY (team, namespace)
);

-- Bearer tokens, stored hashed (SHA-256), never in clear.
CREATE TABLE api_credential (
    id          bigserial   PRIMARY KEY,
    token_hash  bytea       NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    principal   text        NOT NULL,
    role        text        NOT NULL CHECK (role IN ('ENGINEER', 'TEAM_LEAD', 'OPS', 'ADMIN', 'AGENT')),
    team        k8s_name    REFERENCES team (name) ON DELETE CASCADE,
    cluster     k8s_name    REFERENCES cluster (name) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz,
    revoked_at  timestamptz,
    CHECK (role <> 'AGENT' OR cluster IS NOT NULL),
    CHECK (expires_at IS NULL OR expires_at > created_at)
);
