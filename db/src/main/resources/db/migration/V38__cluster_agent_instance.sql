-- The agent process that speaks for the cluster: reports and command polls of another one are refused while this
-- one is alive (its last report within platform.agents.agent-liveness). NULL: none speaks (never, or it resigned).
ALTER TABLE cluster ADD COLUMN agent_instance text;
