-- A cluster whose FULL report lacked too many of its running JobSets at once: their requeues are held until a later
-- FULL report confirms it or an operator does (disruption_confirmed_at), and the mark is cleared when they come back.
ALTER TABLE cluster
    ADD COLUMN disrupted_since timestamptz,
    ADD COLUMN disruption_report_at timestamptz,
    ADD COLUMN disruption_missing integer,
    ADD COLUMN disruption_running integer,
    ADD COLUMN disruption_confirmed_at timestamptz,
    ADD COLUMN disruption_confirmed_by text;
