package dev.platform.scheduler.console;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.web.KeysetCursor;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadState;
import dev.platform.scheduler.workload.WorkloadStatuses;
import dev.platform.scheduler.workload.WorkloadStore;
import dev.platform.web.mine.MyWorkloadsQueries;
import org.springframework.stereotype.Component;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The "My workloads" page from the workload store's keyset pages (newest first): the caller's teams' namespaces
 * (every namespace for Ops and Admins), narrowed to one namespace, state, LocalQueue and to what the caller submitted.
 */
@Component
class ConsoleMyWorkloads implements MyWorkloadsQueries {

    private final WorkloadStore store;
    private final WorkloadStatuses statuses;

    ConsoleMyWorkloads(WorkloadStore store, WorkloadStatuses statuses) {
        this.store = store;
        this.statuses = statuses;
    }

    @Override
    public Page workloads(Caller caller, Filter filter, String cursor, int limit) {
        Optional<Set<String>> visible = caller.visibleNamespaces();
        Collection<String> namespaces = filter.namespace() == null ? visible.orElse(null)
                : visible.map(v -> v.contains(filter.namespace())).orElse(true) ? List.of(filter.namespace()) : List.of();
        List<WorkloadRow> rows = store.list(namespaces, filter.state() == null ? null : WorkloadState.valueOf(filter.state()),
                filter.queue(), filter.mine() ? caller.name() : null,
                cursor == null ? null : KeysetCursor.decode(cursor, UUID::fromString), limit + 1);
        KeysetCursor.Page<WorkloadRow> page = KeysetCursor.page(rows, limit, w -> new KeysetCursor<>(w.createdAt(), w.uid()));
        return new Page(statuses.of(page.items()).stream().map(ConsoleViews::line).toList(), page.next());
    }
}
