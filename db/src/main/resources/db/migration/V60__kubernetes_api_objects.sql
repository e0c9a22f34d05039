-- The Kubernetes API's revisions and objects.
--
-- One revision sequence for every kind: workload_change_seq, which every workload write already draws while holding
-- the workload writers' advisory lock (V2), so its order is commit order. Configuration changes draw from it too,
-- under the same lock, as config_audit.revision: an object's resourceVersion is the revision of its latest change, and
-- a watch from revision N reads the rows above N of config_audit and of workload, as k3s's kine reads its log.
ALTER TABLE config_audit ADD COLUMN revision bigint;
UPDATE config_audit c SET revision = r.revision
FROM (SELECT id, nextval('workload_change_seq') AS revision FROM (SELECT id FROM config_audit ORDER BY id) o) r
WHERE c.id = r.id;
ALTER TABLE config_audit ALTER COLUMN revision SET DEFAULT nextval('workload_change_seq');
ALTER TABLE config_audit ALTER COLUMN revision SET NOT NULL;
CREATE UNIQUE INDEX config_audit_revision_idx ON config_audit (revision);
CREATE INDEX config_audit_object_revision_idx ON config_audit (kind, coalesce(namespace, ''), name, revision DESC);

-- A configuration object as its author wrote it (labels, annotations such as kubectl's last-applied-configuration,
-- spec fields with the types they were given), with the identity Kubernetes gives it: uid and creation time. The
-- typed tables hold what the platform acts on; this holds what is read back, so `kubectl apply` of an unchanged
-- file finds nothing to change.
CREATE TABLE applied_object (
    kind        text        NOT NULL,
    namespace   text        NOT NULL DEFAULT '',
    name        text        NOT NULL,
    uid         uuid        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    generation  bigint      NOT NULL DEFAULT 1,
    object      jsonb       NOT NULL,
    PRIMARY KEY (kind, namespace, name)
);

-- The objects that exist now get their identity: created when their first change was audited.
INSERT INTO applied_object (kind, namespace, name, uid, created_at, object)
SELECT kind, coalesce(namespace, ''), name, gen_random_uuid(), min(at), '{}'::jsonb
FROM config_audit a
WHERE action <> 'deleted'
  AND NOT EXISTS (SELECT 1 FROM config_audit later WHERE later.kind = a.kind
                    AND coalesce(later.namespace, '') = coalesce(a.namespace, '') AND later.name = a.name
                    AND later.action = 'deleted' AND later.id > a.id)
GROUP BY kind, coalesce(namespace, ''), name;

-- Deleting a workload frees its name: the row stays, with its history (timeline, preemptions, lost work) under its
-- uid, and a new workload may take the name. Only one row of a name is live at a time.
ALTER TABLE workload ADD COLUMN deleted_at timestamptz;
ALTER TABLE workload DROP CONSTRAINT workload_namespace_name_key;
CREATE UNIQUE INDEX workload_live_name_idx ON workload (namespace, name) WHERE deleted_at IS NULL;
CREATE INDEX workload_name_idx ON workload (namespace, name, created_at DESC);

-- The revision up to which the change log is no longer whole: the highest revision of a workload that history
-- retention removed. A watch from a revision below it is answered 410 Gone, as a compacted revision is in etcd.
CREATE TABLE workload_compaction (
    id       boolean PRIMARY KEY DEFAULT true CHECK (id),
    revision bigint  NOT NULL DEFAULT 0
);
INSERT INTO workload_compaction (id, revision) VALUES (true, 0);
