/**
 * The scheduling core: Kueue's quota admission and preemption rules in plain Java (JDK only; no Spring, JPA,
 * Jackson or Kubernetes types, enforced by an ArchUnit test).
 *
 * <h2>Entry points</h2>
 * <ul>
 *   <li>{@link dev.platform.scheduler.core.SchedulerState} — the one long-lived object. Construct it with a
 *       {@link java.time.Clock} and {@link dev.platform.scheduler.core.SchedulerSettings} (fair sharing on or off).</li>
 *   <li>Configuration, applied as it changes: {@code applyResourceFlavor}, {@code applyCohort},
 *       {@code applyClusterQueue}, {@code applyLocalQueue}, {@code applyNamespace} and their {@code remove*}
 *       counterparts, taking the {@code core.model} records {@link dev.platform.scheduler.core.model.ResourceFlavor},
 *       {@link dev.platform.scheduler.core.model.CohortSpec}, {@link dev.platform.scheduler.core.model.ClusterQueueSpec},
 *       {@link dev.platform.scheduler.core.model.LocalQueueSpec}, {@link dev.platform.scheduler.core.model.Namespace}.</li>
 *   <li>Workload events, as they happen: {@code addPending(Workload)}, {@code removePending(uid)},
 *       {@code addAdmitted(Workload, Admission, admittedAt)} (start-up restore), {@code evictionCommitted(uid)}
 *       (the scheduler's: the eviction is in the database, the victim's quota is free and it waits at its original
 *       place), {@code evictionCompleted(uid)} (Kueue's moment, pods gone and requeued as of then, which scenario
 *       replays use), {@code workloadFinished(uid)}. The cycle itself marks victims with {@code evictionStarted}.</li>
 *   <li>Lifecycle controls: {@code addInactive(Workload)}, {@code deactivate(uid)} (spec.active false: out of its
 *       queue, or evicted by the next cycle with reason Deactivated and not requeued), {@code activate(uid)},
 *       {@code changePriority(uid, priority)} (re-sorted; an admitted one re-weighed for preemption).</li>
 *   <li>"Something changed" outside the core (node pool healed, capacity reported):
 *       {@code requeueInadmissible()} or {@code requeueInadmissible(clusterQueue)}. Finishing a workload and any
 *       configuration change requeue on their own (new namespace labels: only the ClusterQueues that newly select
 *       the namespace).</li>
 *   <li>{@code AdmissionCycle.run(state)} — one admission cycle, run by the adapter's loop, returning a
 *       {@link dev.platform.scheduler.core.CycleResult} of
 *       {@link dev.platform.scheduler.core.Decision}s: {@code Admit} (naming the admission checks that must pass first,
 *       if its ClusterQueue has any), {@code Preempt} (victim, reason, Kueue's
 *       message), {@code Pending} (typed {@link dev.platform.api.reason.PendingReason}, message, whether it went
 *       to the inadmissible set) and {@code Evict} (HoldAndDrain or deactivation, with an
 *       {@link dev.platform.api.reason.EvictionReason}).</li>
 *   <li>Admission checks (two-phase admission), beside the state as the lifecycle timers are:
 *       {@link dev.platform.scheduler.core.admissioncheck.CheckedReservations} tracks the quota reservations that
 *       wait for checks and says which are admitted, requeued with backoff (Retry) or deactivated (Rejected);
 *       {@link dev.platform.scheduler.core.admissioncheck.ProvisioningRules} maps a ProvisioningRequest's conditions
 *       to its check's state.</li>
 * </ul>
 *
 * <h2>Data flow</h2>
 * <pre>
 *   adapter events ──► SchedulerState: ConfigurationIndex (config by name), QueueManager (per-ClusterQueue
 *                      ordered pending queues + inadmissible sets), AdmittedRegistry (admitted workloads, usage
 *                      kept incrementally in a QuotaTree, the snapshot), ChangeStamps (for the forecast)
 *   AdmissionCycle.run(state):  snapshot (copy of the QuotaTree: O(queues + cohorts))
 *                rounds: head of every open ClusterQueue ─► FlavorAssigner (+ Preemptor as oracle)
 *                        ─► order (classical or DRS tournament) ─► admit / preempt / requeue, fit re-checked
 *                decisions applied to the state (admitted hold quota, victims marked as being evicted)
 *   CycleResult ──► adapter persists decisions (one transaction) and executes evictions
 * </pre>
 * A cycle already accounts its own decisions. If the adapter cannot persist an admission it should call
 * {@code workloadFinished(uid)} and {@code addPending(workload)} to undo it. The state is single-threaded.
 *
 * <h2>Units</h2>
 * Quantities are {@code long} milli-units ({@code Quantity.milliValue()}); priorities are {@code int}.
 */
package dev.platform.scheduler.core;
