package dev.platform.scheduler.kubernetes.handlers;

/** The revision every committed change up to which a list includes: the resourceVersion of lists. */
@FunctionalInterface
public interface Revisions {
    long current();
}
