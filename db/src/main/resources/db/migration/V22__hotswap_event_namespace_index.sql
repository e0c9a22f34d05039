-- A team lead's hotswap list: the events of workloads in the team's namespaces, newest first.
CREATE INDEX hotswap_event_namespace_idx ON hotswap_event (disrupted_namespace, detected_at DESC, id DESC);
