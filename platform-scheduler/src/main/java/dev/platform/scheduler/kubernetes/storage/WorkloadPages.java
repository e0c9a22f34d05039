package dev.platform.scheduler.kubernetes.storage;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStore;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Lists and change logs of objects made from workload rows (JobSets, Jobs, Kueue's Workloads): pages read in key
 * order from the workload table a batch at a time until the page is full, and changes read by revision, both only of
 * the namespaces the caller reads.
 */
final class WorkloadPages {

    /**
     * Rows read at once while filling a page that a selector thins out: kubectl's page of 500 and the row that says
     * more remain in one read, so a page costs one set of statements rather than a second set for that one row.
     */
    private static final int BATCH = 501;

    private WorkloadPages() {
    }

    /** One page of the objects of {@code kinds} (null: every kind) that the query's selector keeps. */
    static ObjectStore.Page page(WorkloadStore store, Collection<String> kinds, ObjectStore.ListQuery query,
                                 Caller caller, Function<List<WorkloadRow>, List<Map<String, Object>>> render) {
        List<Map<String, Object>> items = new ArrayList<>();
        String afterNamespace = query.after() == null ? null : query.after().namespace();
        String afterName = query.after() == null ? null : query.after().name();
        WorkloadRow lastAdded = null;
        while (true) {
            int want = query.limit() > 0 ? Math.min(BATCH, query.limit() - items.size() + 1) : BATCH;
            List<WorkloadRow> rows = store.listByKey(kinds, query.namespace(), null, afterNamespace, afterName, want);
            List<WorkloadRow> visible = rows.stream().filter(r -> caller.mayRead(r.namespace())).toList();
            List<Map<String, Object>> objects = render.apply(visible);
            for (int i = 0; i < objects.size(); i++) {
                if (!query.selector().matches(objects.get(i))) {
                    continue;
                }
                if (query.limit() > 0 && items.size() == query.limit()) {
                    // the rows' key, not the object's name: a JobSet's Workload is named after it, not as its row
                    return new ObjectStore.Page(items, true,
                            new ObjectStore.Key(lastAdded.namespace(), lastAdded.name()));
                }
                items.add(objects.get(i));
                lastAdded = visible.get(i);
            }
            if (rows.size() < want) {
                return new ObjectStore.Page(items, false);
            }
            WorkloadRow last = rows.get(rows.size() - 1);
            afterNamespace = last.namespace();
            afterName = last.name();
        }
    }

    /**
     * The changes after {@code revision} of the rows {@code mine} keeps: a row that is deleted is DELETED, one never
     * changed since its submission ADDED, any other MODIFIED.
     */
    static ObjectStore.Changes changes(WorkloadStore store, long revision, int limit, Caller caller,
                                       Predicate<WorkloadRow> mine,
                                       Function<List<WorkloadRow>, List<Map<String, Object>>> render) {
        List<WorkloadRow> log = store.changedSince(revision, limit);
        List<WorkloadRow> read = log.stream().filter(mine).filter(row -> caller.mayRead(row.namespace())).toList();
        Set<UUID> deleted = store.deleted(read.stream().map(WorkloadRow::uid).toList());
        List<Map<String, Object>> objects = render.apply(read);
        List<ObjectStore.Change> changes = new ArrayList<>(read.size());
        for (int i = 0; i < read.size(); i++) {
            WorkloadRow row = read.get(i);
            String type = deleted.contains(row.uid()) ? "DELETED" : row.version() == 0 ? "ADDED" : "MODIFIED";
            changes.add(new ObjectStore.Change(row.changeSeq(), type, objects.get(i)));
        }
        return new ObjectStore.Changes(changes, log.isEmpty() ? revision : log.get(log.size() - 1).changeSeq(),
                log.size() == limit);
    }
}
