package dev.platform.scheduler.core;

/**
 * Global settings. {@code fairSharing} mirrors Kueue's Configuration fairSharing.enable (our
 * {@code platform.scheduler.fair-sharing.enabled}); the preemption strategies are then LessThanOrEqualToFinalShare
 * followed by LessThanInitialShare, Kueue's default. {@code admissionFairSharing} mirrors Kueue's
 * Configuration admissionFairSharing (our {@code platform.scheduler.admission-fair-sharing.*}): null, as when the
 * block is absent, turns it off for every ClusterQueue whatever its admission mode.
 */
public record SchedulerSettings(boolean fairSharing, AdmissionFairSharing admissionFairSharing) {

    public static final SchedulerSettings CLASSICAL = new SchedulerSettings(false);
    public static final SchedulerSettings FAIR_SHARING = new SchedulerSettings(true);

    /** Without admission fair sharing. */
    public SchedulerSettings(boolean fairSharing) {
        this(fairSharing, null);
    }

    public SchedulerSettings withAdmissionFairSharing(AdmissionFairSharing settings) {
        return new SchedulerSettings(fairSharing, settings);
    }
}
