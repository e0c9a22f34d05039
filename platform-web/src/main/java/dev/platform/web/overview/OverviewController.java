package dev.platform.web.overview;

import dev.platform.api.identity.Caller;
import dev.platform.web.nodepool.PoolHealthSummary;
import dev.platform.web.hotswap.HotswapQueries;
import dev.platform.web.nodepool.NodePoolQueries;
import dev.platform.web.nodepool.PriorityOnlyHolding;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

import java.util.List;

/**
 * The console's landing page: cohorts and ClusterQueues with their usage, node-pool health with what priority-only
 * workloads hold outside every quota, and the latest preemptions and hotswaps.
 */
@Controller
public class OverviewController {

    static final int LATEST_PREEMPTIONS = 10;
    static final int LATEST_HOTSWAPS = 5;

    private final OverviewQueries queries;
    private final HotswapQueries hotswaps;
    private final NodePoolQueries nodePools;

    public OverviewController(OverviewQueries queries, HotswapQueries hotswaps, NodePoolQueries nodePools) {
        this.queries = queries;
        this.hotswaps = hotswaps;
        this.nodePools = nodePools;
    }

    /** Hotswaps and node pools are Ops' view; a team member sees their own queues and, as a lead, their preemptions. */
    @GetMapping("/")
    public String overview(Caller caller, Model model) {
        model.addAttribute("nav", "overview");
        model.addAttribute("overview", queries.overview(caller, LATEST_PREEMPTIONS));
        if (caller.readsEverything()) {
            model.addAttribute("latestHotswaps", hotswaps.latest(caller, LATEST_HOTSWAPS));
            List<NodePoolQueries.ClusterPools> clusters = nodePools.clusters();
            model.addAttribute("poolHealth", PoolHealthSummary.of(clusters));
            model.addAttribute("priorityOnly", PriorityOnlyHolding.of(clusters));
        }
        return "overview";
    }
}
