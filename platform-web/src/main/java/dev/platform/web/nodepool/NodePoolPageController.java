package dev.platform.web.nodepool;

import dev.platform.web.nodepool.NodePoolQueries.ClusterPools;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

import java.util.List;

/**
 * Per cluster, its node pools grouped by accelerator and topology, coloured by health, and what workloads in
 * priority-only mode hold outside every quota.
 */
@Controller
public class NodePoolPageController {

    private final NodePoolQueries queries;

    public NodePoolPageController(NodePoolQueries queries) {
        this.queries = queries;
    }

    @GetMapping("/nodepools")
    public String nodePools(Model model) {
        List<ClusterPools> clusters = queries.clusters();
        model.addAttribute("nav", "nodepools");
        model.addAttribute("clusters", clusters);
        model.addAttribute("summary", PoolHealthSummary.of(clusters));
        model.addAttribute("priorityOnly", PriorityOnlyHolding.of(clusters));
        return "nodepools";
    }
}
