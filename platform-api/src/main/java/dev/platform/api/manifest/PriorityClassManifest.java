package dev.platform.api.manifest;

/**
 * scheduling.k8s.io/v1 PriorityClass. preemptionPolicy is PreemptLowerPriority (default) or Never.
 */
public record PriorityClassManifest(String name, int value, boolean globalDefault, String description,
                                    String preemptionPolicy) implements ConfigManifest {

    public PriorityClassManifest {
        preemptionPolicy = preemptionPolicy == null ? "PreemptLowerPriority" : preemptionPolicy;
    }

    @Override
    public Kind kind() {
        return Kind.PRIORITY_CLASS;
    }
}
