package dev.platform.scheduler.cluster;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.refusal.Refusal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

/** Node-pool inventory and health of the connected clusters, and the confirmation of a disrupted one's requeues. */
@RestController
@RequestMapping(path = "/api/v1/clusters", produces = "application/json")
class ClusterController {

    private static final Logger log = LoggerFactory.getLogger(ClusterController.class);

    private final ClusterQueries queries;
    private final ClusterDisruptions disruptions;

    ClusterController(ClusterQueries queries, ClusterDisruptions disruptions) {
        this.queries = queries;
        this.disruptions = disruptions;
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

    /**
     * An Ops or Admin user lets a disrupted cluster's held requeues go ahead (the scheduling loop requeues them within
     * a second); 409 when the cluster is not disrupted.
     */
    @PostMapping("/{cluster}/disruption/confirm")
    ClusterQueries.ClusterView confirmDisruption(@PathVariable String cluster, Caller caller) {
        ClusterQueries.ClusterView view = queries.cluster(cluster).orElseThrow(() -> Refusal.notFound("Cluster", cluster));
        if (!disruptions.confirm(cluster, caller.name())) {
            throw Refusal.conflict("cluster " + cluster + " is not disrupted: no requeue is held", List.of());
        }
        log.warn("cluster {}: {} confirmed the disruption; its held requeues go ahead", cluster, caller.name());
        return view;
    }

    @GetMapping("/{cluster}/nodepools")
    ClusterQueries.NodePoolsView nodePools(@PathVariable String cluster) {
        return queries.nodePools(cluster).orElseThrow(() -> Refusal.notFound("Cluster", cluster));
    }
}
