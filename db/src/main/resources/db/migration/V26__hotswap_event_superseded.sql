-- A hotswap whose victims' evictions stayed refused is followed by another that chooses other victims; the
-- first ends Superseded.
ALTER TABLE hotswap_event DROP CONSTRAINT hotswap_event_outcome_check;
ALTER TABLE hotswap_event ADD CONSTRAINT hotswap_event_outcome_check
    CHECK (outcome IN ('InProgress', 'Recovered', 'Requeued', 'Failed', 'Superseded'));
