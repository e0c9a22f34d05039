package dev.platform.web.hotswap;

import dev.platform.api.identity.Caller;
import dev.platform.web.console.HotswapView;

import java.util.List;

/** What the hotswap pages read: the latest events, newest first, in a fixed number of queries. */
public interface HotswapQueries {

    /**
     * The latest events of workloads in the namespaces {@code caller} leads (every event for Ops and Admins),
     * another team's victims unnamed.
     */
    List<HotswapView> latest(Caller caller, int limit);
}
