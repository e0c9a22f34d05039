package dev.platform.scheduler.cluster;

import dev.platform.scheduler.refusal.Refusal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

/** Node-pool inventory and health of the connected clusters. */
@RestController
@RequestMapping(path = "/api/v1/clusters", produces = "application/json")
class ClusterController {

    private final ClusterQueries queries;

    ClusterController(ClusterQueries queries) {
        this.queries = queries;
    }

    record ClusterList(List<ClusterQueries.ClusterView> items) {
    }

    @GetMapping
    ClusterList clusters() {
        return new ClusterList(queries.clusters());
    }

    @GetMapping("/{cluster}")
    ClusterQueries.ClusterView cluster(@PathVariable String cluster) {
        return queries.cluster(cluster).orElseThrow(() -> Refusal.notFound("Cluster", cluster));
    }

    @GetMapping("/{cluster}/nodepools")
    ClusterQueries.NodePoolsView nodePools(@PathVariable String cluster) {
        return queries.nodePools(cluster).orElseThrow(() -> Refusal.notFound("Cluster", cluster));
    }
}
