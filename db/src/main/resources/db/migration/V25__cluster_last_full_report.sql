-- When the scheduler last applied a FULL report of the cluster (its agent's whole picture). A JobSet the
-- cluster acknowledged starting before that report, and that the report lacks, is gone from the cluster.
ALTER TABLE cluster ADD COLUMN last_full_report_at timestamptz;
