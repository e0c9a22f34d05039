package dev.platform.scheduler.cluster;

import dev.platform.api.agent.GkeLabels;
import dev.platform.api.manifest.Quantity;
import dev.platform.api.manifest.WorkloadManifest.PodSetSpec;
import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.placement.NodePool;
import dev.platform.scheduler.core.placement.PoolKey;
import dev.platform.scheduler.core.placement.SlicePlacement;
import dev.platform.scheduler.core.placement.SliceRequest;
import dev.platform.scheduler.workload.StoredAdmission;
import dev.platform.scheduler.workload.WorkloadRow;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The loop's view of node pools: inventory as agents report it (a cluster whose agent is silent past
 * the staleness window has its pools Unknown, never Unhealthy), which workload holds which pool, and
 * the translation of admissions into slice requests. Placement applies only once a cluster is
 * connected; without one, admission is quota-only.
 */
public final class NodePoolPlacement {

    private final SlicePlacement slices = new SlicePlacement();
    private List<NodePool> inventory = List.of();

    /** Takes the inventory as read now; true when any pool appeared, vanished or changed health. */
    public boolean replaceInventory(List<NodePool> current) {
        if (current.equals(inventory)) {
            return false;
        }
        inventory = current;
        slices.replaceInventory(current);
        return true;
    }

    /** Whether any connected, fresh cluster reports pools: only then does placement apply. */
    public boolean active() {
        return inventory.stream().anyMatch(p -> p.health() != NodePool.Health.Unknown);
    }

    /** Keys of the pools currently Unhealthy. */
    public Set<PoolKey> unhealthyPools() {
        Set<PoolKey> keys = new HashSet<>();
        inventory.stream().filter(p -> p.health() == NodePool.Health.Unhealthy).forEach(p -> keys.add(p.key()));
        return keys;
    }

    public SlicePlacement slices() {
        return slices;
    }

    /** Restores a holding read back from the database at rebuild. */
    public void restore(WorkloadRow row) {
        if (row.cluster() == null || row.admission() == null) {
            return;
        }
        Map<String, List<PoolKey>> pools = new TreeMap<>();
        for (StoredAdmission.PodSetAssignment a : row.admission().podSetAssignments()) {
            pools.put(a.name(), a.nodePools().stream().map(p -> new PoolKey(row.cluster(), p)).toList());
        }
        slices.assign(holder(row), new SlicePlacement.Placement(row.cluster(), pools));
    }

    public static SlicePlacement.Holder holder(WorkloadRow row) {
        return new SlicePlacement.Holder(row.uid().toString(), row.priority(),
                row.admittedAt() == null ? row.queueTimestamp() : row.admittedAt());
    }

    /** The slices a workload needs under the flavors its admission assigned. */
    public static SliceRequest request(WorkloadRow row, Admission admission, Map<String, Map<String, String>> flavorLabels) {
        Map<String, Map<String, String>> flavorsByPodSet = new HashMap<>();
        admission.podSetAssignments().forEach(a -> flavorsByPodSet.put(a.name(), a.flavors()));
        return request(row, flavorsByPodSet, flavorLabels);
    }

    /** The slices an admitted workload needs under the flavors of its stored admission. */
    public static SliceRequest request(WorkloadRow row, Map<String, Map<String, String>> flavorLabels) {
        Map<String, Map<String, String>> flavorsByPodSet = new HashMap<>();
        row.admission().podSetAssignments().forEach(a -> flavorsByPodSet.put(a.name(), a.flavors()));
        return request(row, flavorsByPodSet, flavorLabels);
    }

    private static SliceRequest request(WorkloadRow row, Map<String, Map<String, String>> flavorsByPodSet,
                                        Map<String, Map<String, String>> flavorLabels) {
        List<SliceRequest.PodSetSlices> podSets = new ArrayList<>();
        for (PodSetSpec spec : row.podSets()) {
            Map<String, String> required = new HashMap<>(spec.nodeSelector());
            flavorsByPodSet.getOrDefault(spec.name(), Map.of()).values().stream().distinct()
                    .forEach(flavor -> required.putAll(flavorLabels.getOrDefault(flavor, Map.of())));
            Quantity chips = spec.requests().get(GkeLabels.TPU_CHIPS);
            long chipsPerPod = chips == null ? 0 : chips.value().longValue();
            podSets.add(new SliceRequest.PodSetSlices(spec.name(), row.exclusiveNodePools(), spec.replicas(),
                    spec.podsPerReplica(), chipsPerPod * spec.podsPerReplica(), required));
        }
        return new SliceRequest(row.uid().toString(), row.priority(), podSets);
    }

    /** Why a workload waits for pools, in words. */
    public static String waitingMessage(SliceRequest request) {
        return request.podSets().stream()
                .map(ps -> ps.exclusive()
                        ? "pod set " + ps.name() + " needs " + ps.replicas() + " free healthy node pool(s) with "
                        + labels(ps.requiredLabels()) + " (" + ps.podsPerReplica() + " nodes, " + ps.chipsPerReplica()
                        + " chips each)"
                        : "pod set " + ps.name() + " needs a healthy node pool with " + labels(ps.requiredLabels()))
                .collect(Collectors.joining("; ", "couldn't place the workload: ", ""));
    }

    private static String labels(Map<String, String> labels) {
        return labels.isEmpty() ? "any labels" : new TreeMap<>(labels).entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
    }

    /** Pool names (without the cluster) per PodSet, as the status shows them. */
    public static Map<String, List<String>> poolNames(SlicePlacement.Placement placement) {
        Map<String, List<String>> names = new TreeMap<>();
        placement.poolsByPodSet().forEach((podSet, keys) ->
                names.put(podSet, keys.stream().map(PoolKey::pool).toList()));
        return names;
    }

    public Optional<SlicePlacement.Placement> place(SliceRequest request) {
        return slices.place(request);
    }
}
