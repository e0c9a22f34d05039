package dev.platform.scheduler.console;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.preemption.PreemptionEvent;
import dev.platform.scheduler.preemption.PreemptionFilter;
import dev.platform.scheduler.preemption.PreemptionStore;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.web.KeysetCursor;
import dev.platform.web.preemption.PreemptionQueries;
import org.springframework.stereotype.Component;

import java.util.List;

/** The audit's pages over the same store and cursor as {@code GET /api/v1/preemptions}. */
@Component
class ConsolePreemptions implements PreemptionQueries {

    private final PreemptionStore store;

    ConsolePreemptions(PreemptionStore store) {
        this.store = store;
    }

    @Override
    public PreemptionPage page(Caller caller, PreemptionSearch search, String cursor, int limit) {
        PreemptionFilter filter = PreemptionFilter.of(caller, search.clusterQueue(), search.namespace(), search.reason(),
                search.since(), search.until());
        List<PreemptionEvent> rows = store.page(filter, cursor == null ? null : decode(cursor), limit + 1);
        KeysetCursor.Page<PreemptionEvent> page = KeysetCursor.page(rows, limit, e -> new KeysetCursor<>(e.at(), e.id()));
        return new PreemptionPage(page.items().stream().map(e -> ConsoleViews.preemption(e.seenBy(caller))).toList(),
                page.next());
    }

    private static KeysetCursor<Long> decode(String cursor) {
        try {
            return KeysetCursor.decode(cursor, Long::valueOf);
        } catch (Refusal e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
