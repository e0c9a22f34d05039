package dev.platform.web.nodepool;

import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** What the node-pools page reads: every cluster with its pools, in a fixed number of queries. */
public interface NodePoolQueries {

    List<ClusterPools> clusters();

    /**
     * {@code stale}: the agent has not reported within the staleness window, so every pool shows Unknown;
     * {@code disruption}: why the cluster's requeues are held and what ends it, null when they are not.
     */
    record ClusterPools(String name, boolean connected, boolean stale, Instant lastReportAt, String disruption,
                        List<Pool> pools) {

        public ClusterPools(String name, boolean connected, boolean stale, Instant lastReportAt, List<Pool> pools) {
            this(name, connected, stale, lastReportAt, null, pools);
        }

        /** Pools grouped by accelerator then topology, in that order; pools keep their order within a group. */
        public List<PoolGroup> groups() {
            Map<List<String>, List<Pool>> groups = new LinkedHashMap<>();
            pools.stream()
                    .sorted(Comparator.comparing((Pool p) -> Objects.toString(p.accelerator(), ""))
                            .thenComparing(p -> Objects.toString(p.topology(), "")))
                    .forEach(p -> groups.computeIfAbsent(
                            java.util.Arrays.asList(p.accelerator(), p.topology()), k -> new java.util.ArrayList<>()).add(p));
            return groups.entrySet().stream()
                    .map(e -> new PoolGroup(e.getKey().get(0), e.getKey().get(1), List.copyOf(e.getValue())))
                    .toList();
        }
    }

    record PoolGroup(String accelerator, String topology, List<Pool> pools) {
    }

    /**
     * A node pool (a slice) as shown: {@code health} is Healthy, Degraded, Unhealthy or Unknown;
     * {@code reasons} the pool's, {@code nodeIssues} each node that is not healthy with its reasons.
     */
    record Pool(String name, String accelerator, String topology, int nodes, int chips, String health,
                List<String> reasons, Instant unhealthySince, List<NodeIssue> nodeIssues,
                List<PlacedWorkload> workloads) {

        /** The CSS class of the pool's tile. */
        public String healthClass() {
            return "health-" + health.toLowerCase(java.util.Locale.ROOT);
        }
    }

    record NodeIssue(String name, String health, List<String> reasons) {
    }

    /** {@code priorityOnly}: it names no queue, so it holds the pool outside every ClusterQueue's quota. */
    record PlacedWorkload(String namespace, String name, String phase, boolean priorityOnly) {
    }
}
