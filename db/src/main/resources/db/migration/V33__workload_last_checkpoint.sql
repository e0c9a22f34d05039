-- When a workload last wrote a checkpoint (its annotation platform.dev/last-checkpoint), beside its manifest: the
-- scheduling loop reads it with every row to order preemption victims by least lost work. Submissions and merge
-- patches write both; the workloads still running or waiting are read from their manifests once, here. A value
-- that is no RFC 3339 time (set before the annotation was checked) counts as no checkpoint, as it does everywhere.
ALTER TABLE workload ADD COLUMN last_checkpoint timestamptz;

UPDATE workload
SET last_checkpoint = (manifest -> 'metadata' -> 'annotations' ->> 'platform.dev/last-checkpoint')::timestamptz
WHERE manifest -> 'metadata' -> 'annotations' ->> 'platform.dev/last-checkpoint'
      ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$'
  AND state NOT IN ('Finished', 'Failed');
