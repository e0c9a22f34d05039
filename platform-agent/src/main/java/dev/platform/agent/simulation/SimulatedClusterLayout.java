package dev.platform.agent.simulation;

import java.util.ArrayList;
import java.util.List;

/** The node pools a simulated cluster starts with. */
public record SimulatedClusterLayout(List<Pool> pools) {

    /** One node pool; accelerator and topology are null for a CPU pool, whose nodes have no chips. */
    public record Pool(String name, String accelerator, String topology, int nodes, int chipsPerNode) {
    }

    public SimulatedClusterLayout {
        pools = List.copyOf(pools);
    }

    /**
     * Four v6e 4x4 slices (4 hosts of 4 chips each, what the seed's JobSets ask for per replica)
     * and one CPU pool.
     */
    public static SimulatedClusterLayout tpuDemo() {
        List<Pool> pools = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            pools.add(new Pool("sim-v6e-4x4-" + i, "tpu-v6e-slice", "4x4", 4, 4));
        }
        pools.add(new Pool("sim-cpu", null, null, 2, 0));
        return new SimulatedClusterLayout(pools);
    }
}
