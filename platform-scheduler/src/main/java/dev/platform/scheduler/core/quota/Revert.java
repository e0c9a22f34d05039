package dev.platform.scheduler.core.quota;

/** Undoes a simulation on a snapshot (Kueue's SimulateWorkloadRemoval returns such a function). */
@FunctionalInterface
public interface Revert extends AutoCloseable {

    @Override
    void close();
}
