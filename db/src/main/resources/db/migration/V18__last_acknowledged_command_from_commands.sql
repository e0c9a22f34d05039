-- The last acknowledged command of a cluster is the highest final command of that cluster, read
-- from agent_command when a cluster is shown. Keeping it on the cluster row made every command
-- result update that one row, so an agent's concurrent results waited for each other's commits.
ALTER TABLE cluster DROP COLUMN last_acked_command;
