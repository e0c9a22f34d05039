package dev.platform.agent.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The node pools a simulated cluster starts with, and how its autoscaler provisions capacity for each
 * ProvisioningRequest class.
 */
public record SimulatedClusterLayout(List<Pool> pools, Map<String, ProvisioningModel> provisioning) {

    /** One node pool; accelerator and topology are null for a CPU pool, whose nodes have no chips. */
    public record Pool(String name, String accelerator, String topology, int nodes, int chipsPerNode) {
    }

    public SimulatedClusterLayout {
        pools = List.copyOf(pools);
        provisioning = provisioning == null ? Map.of() : Map.copyOf(provisioning);
    }

    /** Pools that provision nothing: no ProvisioningRequest is ever answered. */
    public SimulatedClusterLayout(List<Pool> pools) {
        this(pools, Map.of());
    }

    /**
     * Four v6e 4x4 slices (4 hosts of 4 chips each, what the seed's JobSets ask for per replica)
     * and one CPU pool; the demo's {@link ProvisioningModel}s.
     */
    public static SimulatedClusterLayout tpuDemo() {
        List<Pool> pools = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            pools.add(new Pool("sim-v6e-4x4-" + i, "tpu-v6e-slice", "4x4", 4, 4));
        }
        pools.add(new Pool("sim-cpu", null, null, 2, 0));
        return new SimulatedClusterLayout(pools, ProvisioningModel.demo());
    }
}
