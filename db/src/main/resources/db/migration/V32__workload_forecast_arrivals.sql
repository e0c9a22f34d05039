-- The forecast with expected arrivals: the admission if nothing new arrives (the run without arrivals, every
-- runtime at its median) beside the estimate, and whether the estimate and its range expect arrivals sampled from
-- the history of the cohort tree's LocalQueues. Rows written before are forecasts that expected none.
ALTER TABLE workload_forecast
    ADD COLUMN admission_if_nothing_arrives timestamptz,
    ADD COLUMN arrival_basis text NOT NULL DEFAULT 'NoArrivalHistory'
        CHECK (arrival_basis IN ('ArrivalHistory', 'NoArrivalHistory'));
UPDATE workload_forecast SET admission_if_nothing_arrives = estimated_admission_at;
