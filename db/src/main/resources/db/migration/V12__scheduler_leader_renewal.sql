-- The leader renews this while it runs: a leader that stops renewing (paused, hung) keeps its
-- advisory lock but loses leadership once a follower sees the renewal older than the lease.
ALTER TABLE scheduler_leader ADD COLUMN renewed_at timestamptz NOT NULL DEFAULT now();
