package dev.platform.scheduler.console;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.hotswap.HotswapEvent;
import dev.platform.scheduler.hotswap.HotswapStore;
import dev.platform.web.console.HotswapView;
import dev.platform.web.hotswap.HotswapQueries;
import org.springframework.stereotype.Component;

import java.util.List;

/** The latest hotswaps in one statement, from the same store as {@code GET /api/v1/hotswaps}. */
@Component
class ConsoleHotswaps implements HotswapQueries {

    private final HotswapStore store;

    ConsoleHotswaps(HotswapStore store) {
        this.store = store;
    }

    @Override
    public List<HotswapView> latest(Caller caller, int limit) {
        return store.page(null, null, caller.ledNamespaces(), null, null, limit).stream()
                .map(e -> view(e.seenBy(caller))).toList();
    }

    private static HotswapView view(HotswapEvent e) {
        return new HotswapView(e.id(), e.cluster(), e.nodePool(), e.nodes(), e.reason(), party(e.disrupted()),
                e.victims().stream().map(ConsoleHotswaps::party).toList(), e.replacementPools(), e.outcome(),
                e.detectedAt(), e.decidedAt(), e.evictionsDoneAt(), e.runningAt());
    }

    private static HotswapView.Party party(HotswapEvent.Party p) {
        return new HotswapView.Party(p.namespace(), p.name());
    }
}
