package dev.platform.scheduler.core.lifecycle;

/** Where an admitted workload's pods stand, as Kueue's PodsReady condition tells it (its reasons). */
public enum PodsReady {
    /** Not every pod has been ready since admission; the timeout counts from the admission. */
    WaitForStart,
    /** Every pod is ready. */
    Ready,
    /** Every pod was ready, and some stopped being so; the recovery timeout counts from then. */
    WaitForRecovery
}
