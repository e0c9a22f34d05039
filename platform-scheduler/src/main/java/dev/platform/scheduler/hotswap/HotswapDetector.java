package dev.platform.scheduler.hotswap;

import dev.platform.scheduler.cluster.NodePoolInventory.UnhealthyPool;
import dev.platform.scheduler.cluster.NodePoolInventory;
import dev.platform.scheduler.cluster.NodePoolPlacement;
import dev.platform.scheduler.core.QueueOrder;
import dev.platform.scheduler.core.placement.NodePool;
import dev.platform.scheduler.core.placement.PoolKey;
import dev.platform.scheduler.core.placement.SlicePlacement;
import dev.platform.scheduler.core.placement.SliceRequest;
import dev.platform.scheduler.workload.WorkloadRow;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Hotswap detection and decision: a pool Unhealthy for longer than the grace period
 * under admitted workloads disrupts them; each, highest priority first, gets replacement pools
 * (free ones, or those of the fewest strictly-lower-priority workloads) in one transaction, or is
 * requeued when none exist. Stale clusters show Unknown, never Unhealthy, so nothing is evicted on
 * stale data. Owned by the scheduling loop thread.
 */
@Component
public class HotswapDetector {

    /** One committed hotswap, for the loop to mirror in its state before the next is decided. */
    public record Decided(WorkloadRow disrupted, SlicePlacement.Replacement replacement, List<WorkloadRow> victims,
                   HotswapWriter.Result result) {
    }

    private final NodePoolInventory inventory;
    private final HotswapWriter writer;
    private final Clock clock;
    private final Duration grace;

    public HotswapDetector(NodePoolInventory inventory, HotswapWriter writer, Clock clock,
                    @Value("${platform.hotswap.grace:5s}") Duration grace) {
        this.inventory = inventory;
        this.writer = writer;
        this.clock = clock;
        this.grace = grace;
    }

    /**
     * Decides and commits a hotswap for every workload held on a broken pool of {@code placement}; {@code mirror}
     * sees each before the next is decided. Returns whether anything was decided.
     *
     * @param rows         the loop's row of a workload by uid
     * @param flavorLabels node labels per ResourceFlavor name
     */
    public boolean run(long epoch, NodePoolPlacement placement, Function<String, WorkloadRow> rows,
                       Map<String, Map<String, String>> flavorLabels, Consumer<Decided> mirror) {
        if (!placement.active()) {
            return false;
        }
        Instant now = clock.instant();
        Map<PoolKey, UnhealthyPool> broken = brokenPools(now, placement);
        if (broken.isEmpty()) {
            return false;
        }
        List<WorkloadRow> disrupted = placement.slices().holdersOf(broken.keySet()).stream()
                .map(rows).filter(r -> r != null && r.state().holdsQuota())
                .sorted(QueueOrder.of(WorkloadRow::priority,
                        r -> r.admittedAt() == null ? r.queueTimestamp() : r.admittedAt(), r -> r.uid().toString()))
                .toList();
        boolean decided = false;
        for (WorkloadRow row : disrupted) {
            Set<PoolKey> itsBroken = new TreeSet<>(placement.slices().poolsOf(row.uid().toString()));
            itsBroken.retainAll(broken.keySet());
            if (itsBroken.isEmpty()) {
                continue;
            }
            UnhealthyPool first = broken.get(itsBroken.iterator().next());
            SliceRequest request = NodePoolPlacement.request(row, flavorLabels);
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

    /** The pools Unhealthy past the grace period under workloads, as the database and the loop's inventory agree. */
    private Map<PoolKey, UnhealthyPool> brokenPools(Instant now, NodePoolPlacement placement) {
        if (placement.slices().holdersOf(placement.unhealthyPools()).isEmpty()) {
            return Map.of();
        }
        Map<PoolKey, UnhealthyPool> broken = new TreeMap<>();
        // Only what the loop's inventory also sees Unhealthy: a stale cluster's pools are Unknown.
        inventory.unhealthySince(now.minus(grace)).stream()
                .filter(p -> placement.slices().pool(p.key())
                        .filter(known -> known.health() == NodePool.Health.Unhealthy).isPresent())
                .forEach(p -> broken.put(p.key(), p));
        return broken;
    }
}
