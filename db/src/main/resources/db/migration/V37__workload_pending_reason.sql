-- Why a pending workload waits gets a narrow table of its own. The scheduling loop records it for a whole backlog at
-- once: 100,000 rows in the first cycle after a start took 6.4-7.1 s as columns of workload, whose rows (~1 KB, the
-- manifest inline) leave room on a page for one new version, so most updates wrote an entry into each of its sixteen
-- indexes. Here the same 100,000 reasons took 1.3 s when new and 0.56 s when changed. A workload has a row while a
-- reason is recorded for it (it is Pending); the row goes when it is admitted or ends, and with its workload.
CREATE TABLE workload_pending_reason (
    workload_uid uuid PRIMARY KEY REFERENCES workload (uid) ON DELETE CASCADE,
    reason       text NOT NULL,
    message      text
);

INSERT INTO workload_pending_reason (workload_uid, reason, message)
SELECT uid, pending_reason, pending_message FROM workload WHERE pending_reason IS NOT NULL;

ALTER TABLE workload DROP COLUMN pending_reason, DROP COLUMN pending_message;
