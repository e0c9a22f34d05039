-- What each preemption cost the victim: the time its lost work counts from (its last checkpoint or its admission,
-- whichever is later) and the resource-seconds per accelerator resource since then. Null for events recorded before.
ALTER TABLE preemption_event ADD COLUMN lost_work jsonb;
