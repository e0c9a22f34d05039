-- The leader epoch under which a decision was committed, so fencing can be audited: no decision
-- of a deposed leader may carry an epoch older than the one current when it was written.
ALTER TABLE workload ADD COLUMN admitted_epoch bigint CHECK (admitted_epoch IS NULL OR admitted_epoch > 0);
ALTER TABLE preemption_event ADD COLUMN epoch bigint CHECK (epoch IS NULL OR epoch > 0);
