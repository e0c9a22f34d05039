package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStore;

import java.util.List;
import java.util.function.Consumer;

/**
 * The workload change feed as the loop reads it: every row changed since the last read, in change
 * order, in batches so a burst of changes never loads at once. Owned by the loop thread.
 */
final class ChangeFeed {

    private static final int BATCH = 5000;

    private final WorkloadStore workloads;
    private long lastChangeSeq;

    /** Starts after the latest change now committed: a rebuild reads everything before it. */
    ChangeFeed(WorkloadStore workloads) {
        this(workloads, workloads.latestChange());
    }

    /** Starts after {@code position}: the state read before was the state at that position or later. */
    ChangeFeed(WorkloadStore workloads, long position) {
        this.workloads = workloads;
        this.lastChangeSeq = position;
    }

    long position() {
        return lastChangeSeq;
    }

    /** Hands every row changed since the last read to {@code apply}; true when there was any. */
    boolean read(Consumer<WorkloadRow> apply) {
        boolean any = false;
        List<WorkloadRow> rows;
        do {
            rows = workloads.changedSince(lastChangeSeq, BATCH);
            for (WorkloadRow row : rows) {
                apply.accept(row);
                lastChangeSeq = row.changeSeq();
            }
            any |= !rows.isEmpty();
        } while (rows.size() == BATCH);
        return any;
    }
}
