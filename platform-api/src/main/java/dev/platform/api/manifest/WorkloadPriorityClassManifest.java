package dev.platform.api.manifest;

/** kueue.x-k8s.io WorkloadPriorityClass: a priority value for workloads only. */
public record WorkloadPriorityClassManifest(String name, int value, String description) implements ConfigManifest {

    @Override
    public Kind kind() {
        return Kind.WORKLOAD_PRIORITY_CLASS;
    }
}
