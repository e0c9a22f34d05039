-- Kueue's AdmissionCheck and ProvisioningRequestConfig objects, each in a table of its own (name and decoded spec,
-- as the other configuration kinds), read by name by whoever serves them.
CREATE TABLE admission_check (
    name            k8s_name    PRIMARY KEY,
    controller_name text        NOT NULL,
    spec            jsonb       NOT NULL,
    generation      bigint      NOT NULL DEFAULT 1 CHECK (generation > 0),
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE provisioning_request_config (
    name       k8s_name    PRIMARY KEY,
    spec       jsonb       NOT NULL,
    generation bigint      NOT NULL DEFAULT 1 CHECK (generation > 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TRIGGER admission_check_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON admission_check
    FOR EACH STATEMENT EXECUTE FUNCTION next_configuration_generation();
CREATE TRIGGER provisioning_request_config_generation
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON provisioning_request_config
    FOR EACH STATEMENT EXECUTE FUNCTION next_configuration_generation();

-- Kueue's status.admissionChecks of a workload: one row per check its ClusterQueue gave it. The rows are written
-- when its quota is reserved, changed by the check's controller, reset to Pending when it is evicted, and stay
-- across a requeue (the retry count names the next ProvisioningRequest); they go with the workload.
CREATE TABLE workload_admission_check (
    workload_uid          uuid        NOT NULL REFERENCES workload (uid) ON DELETE CASCADE,
    name                  k8s_name    NOT NULL,
    state                 text        NOT NULL CHECK (state IN ('Pending', 'Ready', 'Retry', 'Rejected')),
    message               text        NOT NULL DEFAULT '',
    last_transition_time  timestamptz NOT NULL,
    retry_count           int         NOT NULL DEFAULT 0 CHECK (retry_count >= 0),
    requeue_after_seconds int         CHECK (requeue_after_seconds >= 0),
    PRIMARY KEY (workload_uid, name)
);

-- A workload holding quota on a ClusterQueue with checks: when its quota was reserved (the start of the wait
-- Kueue's admission_checks_wait_time_seconds measures) and when every check was Ready (null while it waits: it is
-- not admitted, and not started). The row goes when its quota goes.
CREATE TABLE workload_check_reservation (
    workload_uid  uuid        PRIMARY KEY REFERENCES workload (uid) ON DELETE CASCADE,
    cluster_queue k8s_name    NOT NULL,
    reserved_at   timestamptz NOT NULL,
    admitted_at   timestamptz
);
CREATE INDEX workload_check_reservation_waiting_idx ON workload_check_reservation (workload_uid)
    WHERE admitted_at IS NULL;
