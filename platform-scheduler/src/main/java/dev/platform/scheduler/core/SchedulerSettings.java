package dev.platform.scheduler.core;

/**
 * Global settings. {@code fairSharing} mirrors Kueue's Configuration fairSharing.enable (our
 * {@code platform.scheduler.fair-sharing.enabled}); the preemption strategies are then LessThanOrEqualToFinalShare
 * followed by LessThanInitialShare, Kueue's default.
 */
public record SchedulerSettings(boolean fairSharing) {

    public static final SchedulerSettings CLASSICAL = new SchedulerSettings(false);
    public static final SchedulerSettings FAIR_SHARING = new SchedulerSettings(true);
}
