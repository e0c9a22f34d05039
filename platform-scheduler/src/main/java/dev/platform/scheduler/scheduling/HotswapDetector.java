package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.core.placement.NodePool;
import dev.platform.scheduler.core.placement.SlicePlacement;
import dev.platform.scheduler.core.placement.SliceRequest;
import dev.platform.scheduler.workload.WorkloadRow;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Hotswap detection and decision (design §6): a pool Unhealthy for longer than the grace period
 * under admitted workloads disrupts them; each, highest priority first, gets replacement pools
 * (free ones, or those of the fewest strictly-lower-priority workloads) in one transaction, or is
 * requeued when none exist. Stale clusters show Unknown, never Unhealthy, so nothing is evicted on
 * stale data. Owned by the scheduling loop thread.
 */
final class HotswapDetector {

    /** One committed hotswap, for the loop to mirror in its state before the next is decided. */
    record Decided(WorkloadRow disrupted, SlicePlacement.Replacement replacement, List<WorkloadRow> victims,
                   HotswapWriter.Result result) {
    }

    /** An Unhealthy pool past the grace period, as the database recorded it. */
    private record Broken(String cluster, String pool, List<String> nodes, String reason, Instant since) {
    }

    private final JdbcClient jdbc;
    private final Clock clock;
    private final Duration grace;
    private final NodePoolPlacement placement;
    private final HotswapWriter writer;
    private final Map<String, Map<String, String>> flavorLabels;

    HotswapDetector(JdbcClient jdbc, Clock clock, Duration grace, NodePoolPlacement placement, HotswapWriter writer,
                    Map<String, Map<String, String>> flavorLabels) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.grace = grace;
        this.placement = placement;
        this.writer = writer;
        this.flavorLabels = flavorLabels;
    }

    /**
     * Decides and commits a hotswap for every workload on a broken pool; {@code mirror} sees each
     * before the next is decided. Returns whether anything was decided.
     */
    boolean run(long epoch, Function<String, WorkloadRow> rows, Consumer<Decided> mirror) {
        if (!placement.active()) {
            return false;
        }
        Instant now = clock.instant();
        Map<String, Broken> broken = brokenPools(now);
        if (broken.isEmpty()) {
            return false;
        }
        List<WorkloadRow> disrupted = placement.slices().holdersOf(broken.keySet()).stream()
                .map(rows).filter(r -> r != null && r.state().holdsQuota())
                .sorted(Comparator.comparingInt(WorkloadRow::priority).reversed()
                        .thenComparing(r -> r.admittedAt() == null ? r.queueTimestamp() : r.admittedAt())
                        .thenComparing(r -> r.uid().toString()))
                .toList();
        boolean decided = false;
        for (WorkloadRow row : disrupted) {
            Set<String> itsBroken = new TreeSet<>(placement.slices().poolsOf(row.uid().toString()));
            itsBroken.retainAll(broken.keySet());
            if (itsBroken.isEmpty()) {
                continue;
            }
            Broken first = broken.get(itsBroken.iterator().next());
            SliceRequest request = NodePoolPlacement.request(row, CoreMapping.admission(row.admission()), flavorLabels);
            SlicePlacement.Replacement replacement = placement.slices().replace(request, itsBroken).orElse(null);
            List<WorkloadRow> victims = replacement == null ? List.of()
                    : replacement.victims().stream().map(h -> rows.apply(h.workloadUid())).toList();
            HotswapWriter.Result result = writer.commit(epoch, new HotswapWriter.Disruption(first.cluster(),
                    first.pool(), first.nodes(), first.reason(), first.since()), row, replacement, victims, now);
            mirror.accept(new Decided(row, replacement, victims, result));
            decided = true;
        }
        return decided;
    }

    private Map<String, Broken> brokenPools(Instant now) {
        if (placement.slices().holdersOf(placement.unhealthyPools()).isEmpty()) {
            return Map.of();
        }
        Map<String, Broken> broken = new TreeMap<>();
        jdbc.sql("""
                        SELECT p.cluster, p.name, p.unhealthy_since, array_to_string(p.health_reasons, ', ') AS reasons,
                               coalesce(array_agg(n.name ORDER BY n.name) FILTER (WHERE n.health = 'Unhealthy'), '{}') AS nodes
                        FROM node_pool p LEFT JOIN node n ON n.cluster = p.cluster AND n.node_pool = p.name
                        WHERE p.health = 'Unhealthy' AND p.unhealthy_since <= ?
                        GROUP BY p.cluster, p.name, p.unhealthy_since, p.health_reasons""")
                .param(Timestamp.from(now.minus(grace)))
                .query((rs, i) -> new Broken(rs.getString(1), rs.getString(2),
                        Arrays.asList((String[]) rs.getArray(5).getArray()), rs.getString(4),
                        rs.getTimestamp(3).toInstant()))
                .list()
                .forEach(b -> {
                    // Only what the loop's inventory also sees Unhealthy: a stale cluster's pools are Unknown.
                    String key = b.cluster() + "/" + b.pool();
                    if (placement.slices().pool(key).filter(p -> p.health() == NodePool.Health.Unhealthy).isPresent()) {
                        broken.put(key, b);
                    }
                });
        return broken;
    }
}
