-- The audit filters by namespace on either side of a preemption; each side has its ordered index.
CREATE INDEX preemption_event_preemptor_ns_idx ON preemption_event (preemptor_namespace, at DESC, id DESC);
