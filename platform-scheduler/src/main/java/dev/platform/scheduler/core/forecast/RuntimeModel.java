package dev.platform.scheduler.core.forecast;

import dev.platform.scheduler.core.model.Workload;

/** The forecast's source of runtimes: how long a workload will hold its quota once admitted to a ClusterQueue. */
@FunctionalInterface
public interface RuntimeModel {

    RuntimeEstimate estimate(Workload workload, String clusterQueue);
}
