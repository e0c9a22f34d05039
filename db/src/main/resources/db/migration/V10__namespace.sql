-- Namespace objects (core v1), kept for their labels: what ClusterQueue namespaceSelectors match.
-- A namespace needs no object here to hold LocalQueues and workloads; without one it has no labels
-- but kubernetes.io/metadata.name, as every Kubernetes namespace has. labels holds that label too.
CREATE TABLE namespace (
    name        k8s_namespace PRIMARY KEY,
    labels      jsonb         NOT NULL CHECK (jsonb_typeof(labels) = 'object'),
    generation  bigint        NOT NULL DEFAULT 1 CHECK (generation > 0),
    created_at  timestamptz   NOT NULL DEFAULT now(),
    updated_at  timestamptz   NOT NULL DEFAULT now()
);
