/**
 * The objects the scheduling core decides about, as immutable records: a {@link
 * dev.platform.scheduler.core.model.Workload} and its pod sets, an {@link dev.platform.scheduler.core.model.Admission}
 * and the {@link dev.platform.scheduler.core.model.AdmittedWorkload} that holds quota, and the configuration the
 * cycle reads (ClusterQueue, Cohort, LocalQueue, ResourceFlavor and Namespace specs with their policies).
 *
 * <p>The bottom of the core: it uses nothing else of the core, and the quota tree, preemption and the admission
 * cycle build on it.
 */
package dev.platform.scheduler.core.model;
