-- Room on each page of the workload table for a row's next version. The scheduling loop records why each pending
-- workload waits (pending_reason, pending_message: no index holds them) for a whole backlog at once, 100,000 rows
-- in the first cycle after a start; on full pages each such update wrote a new entry into every index of the table
-- (fourteen). With room on the page PostgreSQL updates the row in place of the page (a heap-only tuple) and no
-- index is written. Pages written from now on keep a fifth free; existing pages keep theirs until rewritten.
ALTER TABLE workload SET (fillfactor = 80);
