package dev.platform.web.hotswap;

import dev.platform.web.console.HotswapView;

import java.util.List;

/** What the hotswap pages read: the latest events, newest first, in a fixed number of queries. */
public interface HotswapQueries {

    List<HotswapView> latest(int limit);
}
