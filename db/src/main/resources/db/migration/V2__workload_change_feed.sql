-- A change feed for the scheduling loop: every write to a workload takes the next value of
-- workload_change_seq while holding the transaction-scoped advisory lock that serialises
-- workload writers, so sequence order is commit order and a reader that has seen N has seen
-- every change up to N. (Configuration changes need no such column: config_audit.id already
-- grows in commit order, its writers being serialised by their own advisory lock.)
CREATE SEQUENCE workload_change_seq;
ALTER TABLE workload ADD COLUMN change_seq bigint NOT NULL DEFAULT nextval('workload_change_seq');
CREATE INDEX workload_change_feed_idx ON workload (change_seq);
