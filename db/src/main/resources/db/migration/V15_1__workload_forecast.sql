-- The wait-time forecast of each pending workload: written by the leader's forecast thread (only the rows
-- whose forecast changed), read by the REST API and the console of every replica. basis is what the
-- estimate rests on, or why there is none; the times are null when there is none.
CREATE TABLE workload_forecast (
    workload_uid           uuid        PRIMARY KEY REFERENCES workload (uid) ON DELETE CASCADE,
    cluster_queue          k8s_name,
    estimated_admission_at timestamptz,
    admission_p10          timestamptz,
    admission_p90          timestamptz,
    basis                  text        NOT NULL CHECK (basis IN ('QuotaAvailable', 'LocalQueueHistory',
        'ClusterQueueHistory', 'MaximumExecutionTime', 'UnknownRuntime', 'NeverFits', 'BeyondHorizon',
        'NotSimulated')),
    message                text        NOT NULL,
    computed_at            timestamptz NOT NULL,
    CHECK (admission_p10 IS NULL OR estimated_admission_at IS NULL OR admission_p10 <= estimated_admission_at),
    CHECK (admission_p90 IS NULL OR estimated_admission_at IS NULL OR admission_p90 >= estimated_admission_at)
);
-- Every read and write goes by workload uid (the primary key); cluster_queue joins cluster_queue_forecast.

-- When each ClusterQueue's forecasts were last computed, and whether the queue changed since without the
-- leader forecasting it again yet (its time budget ran out): those forecasts are shown as stale.
CREATE TABLE cluster_queue_forecast (
    cluster_queue k8s_name    PRIMARY KEY,
    computed_at   timestamptz NOT NULL,
    stale         boolean     NOT NULL DEFAULT false
);
