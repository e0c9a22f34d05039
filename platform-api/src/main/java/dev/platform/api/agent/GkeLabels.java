package dev.platform.api.agent;

/**
 * The GKE node labels and the extended resource the platform places TPU slices by: the agent reads
 * them off nodes, the scheduler matches flavors and exclusive placement against them.
 */
public final class GkeLabels {

    /** The node pool a node belongs to; also the topology key of one-slice-per-pool placement. */
    public static final String NODE_POOL = "cloud.google.com/gke-nodepool";
    public static final String TPU_ACCELERATOR = "cloud.google.com/gke-tpu-accelerator";
    public static final String TPU_TOPOLOGY = "cloud.google.com/gke-tpu-topology";
    /** The extended resource a TPU node offers, in chips. */
    public static final String TPU_CHIPS = "google.com/tpu";

    private GkeLabels() {
    }
}
