------------------------------------------------------------------------------------------
-- Identity: users, teams with their namespaces and members, API tokens, agent tokens, the
-- access audit, and console sessions (shared by every replica).
------------------------------------------------------------------------------------------

-- A login name as people and identity providers write it (an e-mail address is one).
CREATE DOMAIN user_name AS text CHECK (VALUE ~ '^[A-Za-z0-9][A-Za-z0-9._@-]{0,252}$');

CREATE TABLE app_user (
    name          user_name   PRIMARY KEY,
    -- Spring Security's delegating encoding ("{bcrypt}..."); null for users who log in through OIDC only.
    password_hash text,
    cluster_role  text        CHECK (cluster_role IN ('Ops', 'Admin')),
    created_at    timestamptz NOT NULL DEFAULT now(),
    created_by    text        NOT NULL
);
CREATE INDEX app_user_admin_idx ON app_user (name) WHERE cluster_role = 'Admin';

-- The Team kind (platform.dev/v1) takes over V1's team and team_namespace tables, which nothing
-- wrote; a namespace belongs to at most one team (team_namespace.namespace is unique).
ALTER TABLE team ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
-- Checked at commit, so one request may move a namespace from one team to another whatever order
-- the rows are written in (configuration writers are serialised, and check ownership first).
ALTER TABLE team_namespace DROP CONSTRAINT team_namespace_namespace_key,
    ADD CONSTRAINT team_namespace_namespace_key UNIQUE (namespace) DEFERRABLE INITIALLY DEFERRED;

-- Members are named, not referenced: a member may be a user of an identity provider that the
-- platform has not seen yet.
CREATE TABLE team_member (
    team      k8s_name  NOT NULL REFERENCES team (name) ON DELETE CASCADE,
    user_name user_name NOT NULL,
    role      text      NOT NULL CHECK (role IN ('Engineer', 'TeamLead')),
    PRIMARY KEY (team, user_name)
);
CREATE INDEX team_member_user_idx ON team_member (user_name);

-- V1's api_credential mixed user and agent credentials and was never written: replaced by one
-- table for each. Tokens are stored as SHA-256 hashes, never in clear.
DROP TABLE api_credential;

CREATE TABLE api_token (
    id          bigserial   PRIMARY KEY,
    token_hash  bytea       NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    user_name   user_name   NOT NULL REFERENCES app_user (name) ON DELETE CASCADE,
    description text        NOT NULL DEFAULT '' CHECK (length(description) <= 200),
    created_at  timestamptz NOT NULL DEFAULT now(),
    created_by  text        NOT NULL,
    expires_at  timestamptz,
    revoked_at  timestamptz,
    revoked_by  text,
    CHECK (expires_at IS NULL OR expires_at > created_at),
    CHECK ((revoked_at IS NULL) = (revoked_by IS NULL))
);
CREATE INDEX api_token_user_idx ON api_token (user_name, id);

-- Bound to one cluster, and valid on the agent endpoints of that cluster only. No reference to
-- the cluster table: a token is issued before the cluster's agent first reports.
CREATE TABLE agent_token (
    id          bigserial   PRIMARY KEY,
    token_hash  bytea       NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    cluster     k8s_name    NOT NULL,
    description text        NOT NULL DEFAULT '' CHECK (length(description) <= 200),
    created_at  timestamptz NOT NULL DEFAULT now(),
    created_by  text        NOT NULL,
    expires_at  timestamptz,
    revoked_at  timestamptz,
    revoked_by  text,
    CHECK (expires_at IS NULL OR expires_at > created_at),
    CHECK ((revoked_at IS NULL) = (revoked_by IS NULL))
);
CREATE INDEX agent_token_cluster_idx ON agent_token (cluster, id);

-- Who did what to identities and workloads (configuration changes go to config_audit).
CREATE TABLE access_audit (
    id      bigserial   PRIMARY KEY,
    at      timestamptz NOT NULL DEFAULT now(),
    actor   text        NOT NULL,
    action  text        NOT NULL CHECK (action IN ('UserCreated', 'UserDeleted', 'PasswordChanged', 'TokenCreated', 'TokenRevoked',
                                                   'AgentTokenCreated', 'AgentTokenRevoked', 'WorkloadCancelled')),
    subject text        NOT NULL,
    detail  text        NOT NULL DEFAULT ''
);
CREATE INDEX access_audit_at_idx ON access_audit (at DESC, id DESC);
CREATE INDEX access_audit_actor_idx ON access_audit (actor, at DESC, id DESC);

-- Console sessions (Spring Session JDBC's PostgreSQL schema), so a login holds on every replica
-- and across restarts, and a deleted user's sessions can be ended.
CREATE TABLE spring_session (
    primary_id            char(36) NOT NULL PRIMARY KEY,
    session_id            char(36) NOT NULL,
    creation_time         bigint   NOT NULL,
    last_access_time      bigint   NOT NULL,
    max_inactive_interval int      NOT NULL,
    expiry_time           bigint   NOT NULL,
    principal_name        text
);
CREATE UNIQUE INDEX spring_session_ix1 ON spring_session (session_id);
CREATE INDEX spring_session_ix2 ON spring_session (expiry_time);
CREATE INDEX spring_session_ix3 ON spring_session (principal_name);

CREATE TABLE spring_session_attributes (
    session_primary_id char(36)     NOT NULL REFERENCES spring_session (primary_id) ON DELETE CASCADE,
    attribute_name     varchar(200) NOT NULL,
    attribute_bytes    bytea        NOT NULL,
    PRIMARY KEY (session_primary_id, attribute_name)
);
