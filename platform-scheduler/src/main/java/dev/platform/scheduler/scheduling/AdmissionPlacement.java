package dev.platform.scheduler.scheduling;

import dev.platform.api.reason.PendingReason;
import dev.platform.scheduler.cluster.NodePoolPlacement;
import dev.platform.scheduler.commit.DecisionCommitter;
import dev.platform.scheduler.commit.WorkloadDecision;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.placement.SlicePlacement;
import dev.platform.scheduler.core.placement.SliceRequest;
import dev.platform.scheduler.workload.WorkloadRow;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * Puts the quota admissions of a cycle on node pools, once a cluster is connected (a quota reservation that waits
 * for admission checks only once they are Ready: its capacity may not exist before). An admission
 * whose slices find no free healthy pool is undone and parked with {@code WaitingForNodePool} until
 * the inventory or the configuration changes. Owned by the loop thread.
 */
final class AdmissionPlacement {

    /** The cycle's decisions after placement, and where each placed admission goes. */
    record Placed(CycleResult result, Map<String, WorkloadDecision.Placed> placements) {
    }

    private final SchedulerCache cache;
    private final FlavorInjections flavors;
    private final Function<Collection<UUID>, Set<UUID>> awaitingChecks;

    /**
     * @param flavors        node labels and tolerations per ResourceFlavor name, kept current by the loop
     * @param awaitingChecks of the workloads given, those whose quota is reserved and who wait for admission checks
     */
    AdmissionPlacement(SchedulerCache cache, FlavorInjections flavors,
                       Function<Collection<UUID>, Set<UUID>> awaitingChecks) {
        this.cache = cache;
        this.flavors = flavors;
        this.awaitingChecks = awaitingChecks;
    }

    Placed place(CycleResult cycle) {
        NodePoolPlacement placement = cache.placement();
        if (!placement.active() || cycle.admitted().isEmpty()) {
            return new Placed(cycle, Map.of());
        }
        Map<String, WorkloadDecision.Placed> placements = new HashMap<>();
        List<Decision.Admit> placed = new ArrayList<>();
        List<Decision.Pending> pending = new ArrayList<>(cycle.pending());
        for (Decision.Admit admit : cycle.admitted()) {
            if (admit.awaitsChecks()) {
                // Only its quota is reserved: it is placed once its checks are Ready (its capacity may not exist yet).
                placed.add(admit);
                continue;
            }
            WorkloadRow row = cache.row(admit.workload().uid());
            SliceRequest request = NodePoolPlacement.request(row, admit.admission(), flavors.nodeLabels());
            Optional<SlicePlacement.Placement> where = placement.place(request);
            if (where.isPresent()) {
                cache.assume(admit, where.get());
                placements.put(admit.workload().uid(), placed(admit.admission(), where.get()));
                placed.add(admit);
            } else {
                cache.park(admit);
                pending.add(new Decision.Pending(admit.workload(), PendingReason.WaitingForNodePool,
                        NodePoolPlacement.waitingMessage(request), true));
            }
        }
        return new Placed(new CycleResult(placed, cycle.preempted(), pending, cycle.evicted()), placements);
    }

    /**
     * Workloads admitted while no cluster was connected run nowhere yet; once a cluster reports
     * pools, each is placed (highest priority first) and started, or left as it is when no pool fits.
     */
    void placeAdmittedWithoutPools(long epoch, DecisionCommitter committer) {
        if (!cache.placement().active()) {
            return;
        }
        List<WorkloadRow> unplaced = cache.admittedWithoutPools();
        Set<UUID> waiting = awaitingChecks.apply(unplaced.stream().map(WorkloadRow::uid).toList());
        for (WorkloadRow row : unplaced) {
            if (waiting.contains(row.uid())) {
                continue;
            }
            Admission admission = CoreMapping.admission(row.admission());
            SliceRequest request = NodePoolPlacement.request(row, admission, flavors.nodeLabels());
            Optional<SlicePlacement.Placement> where = cache.placement().place(request);
            if (where.isEmpty()) {
                continue;
            }
            WorkloadDecision.Place place = new WorkloadDecision.Place(WorkloadDecision.Subject.of(row), row.version(),
                    row.admission().onPools(NodePoolPlacement.poolNames(where.get())), placed(admission, where.get()));
            Long version = committer.commit(epoch, List.of(place)).versions().get(row.uid());
            if (version != null) {
                cache.placed(row, version, where.get());
            }
        }
    }

    /** Where an admission goes, with what its (first) flavor injects into the pod templates. */
    private WorkloadDecision.Placed placed(Admission admission, SlicePlacement.Placement where) {
        return flavors.placed(where, admission.podSetAssignments().stream().flatMap(a -> a.flavors().values().stream())
                .findFirst().orElse(null));
    }
}
