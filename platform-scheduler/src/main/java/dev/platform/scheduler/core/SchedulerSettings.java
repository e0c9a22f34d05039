package dev.platform.scheduler.core;

import java.util.Set;

/**
 * Global settings. {@code fairSharing} mirrors Kueue's Configuration fairSharing.enable (our
 * {@code platform.scheduler.fair-sharing.enabled}); the preemption strategies are then LessThanOrEqualToFinalShare
 * followed by LessThanInitialShare, Kueue's default. {@code admissionFairSharing} mirrors Kueue's
 * Configuration admissionFairSharing (our {@code platform.scheduler.admission-fair-sharing.*}): null, as when the
 * block is absent, turns it off for every ClusterQueue whatever its admission mode. {@code lostWorkResources}
 * ({@code platform.scheduler.lost-work.resources}) are the resources whose admitted amount counts as the work a
 * preemption victim loses, where a ClusterQueue orders its candidates by least lost work.
 */
public record SchedulerSettings(boolean fairSharing, AdmissionFairSharing admissionFairSharing,
                                Set<String> lostWorkResources) {

    /** The accelerators, as {@code platform.scheduler.lost-work.resources} names them by default. */
    public static final Set<String> ACCELERATORS = Set.of("google.com/tpu", "nvidia.com/gpu");
    public static final SchedulerSettings CLASSICAL = new SchedulerSettings(false);
    public static final SchedulerSettings FAIR_SHARING = new SchedulerSettings(true);

    public SchedulerSettings {
        lostWorkResources = Set.copyOf(lostWorkResources);
    }

    /** Without admission fair sharing, the lost work counted in the accelerators. */
    public SchedulerSettings(boolean fairSharing) {
        this(fairSharing, null);
    }

    /** The lost work counted in the accelerators. */
    public SchedulerSettings(boolean fairSharing, AdmissionFairSharing admissionFairSharing) {
        this(fairSharing, admissionFairSharing, ACCELERATORS);
    }

    public SchedulerSettings withAdmissionFairSharing(AdmissionFairSharing settings) {
        return new SchedulerSettings(fairSharing, settings, lostWorkResources);
    }

    public SchedulerSettings withLostWorkResources(Set<String> resources) {
        return new SchedulerSettings(fairSharing, admissionFairSharing, resources);
    }
}
