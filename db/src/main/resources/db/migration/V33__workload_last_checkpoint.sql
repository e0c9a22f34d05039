-- When a workload last wrote a checkpoint (its annotation platform.dev/last-checkpoint), beside its manifest: the
-- scheduling loop reads it with every row to order preemption victims by least lost work. Submissions and merge
-- patches write both; the workloads still running or waiting are read from their manifests once, here.
ALTER TABLE workload ADD COLUMN last_checkpoint timestamptz;

UPDATE workload
SET last_checkpoint = (manifest -> 'metadata' -> 'annotations' ->> 'platform.dev/last-checkpoint')::timestamptz
WHERE manifest -> 'metadata' -> 'annotations' ->> 'platform.dev/last-checkpoint' IS NOT NULL
  AND state NOT IN ('Finished', 'Failed');
