package dev.platform.scheduler.core;

import dev.platform.scheduler.core.model.AdmissionMode;
import dev.platform.scheduler.core.model.AdmittedWorkload;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.Workload;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * Admission fair sharing as the state sees it: each LocalQueue's consumed resources ({@link UsageLedger}, absent
 * when the settings turn it off), in force for the ClusterQueues whose mode asks for it, and the queues it reorders
 * when a LocalQueue's usage changes.
 */
public final class LocalQueueFairSharing {

    /** Null when the settings turn admission fair sharing off. */
    private final UsageLedger ledger;
    private final Clock clock;
    private final ConfigurationIndex configuration;
    private final QueueManager queues;

    LocalQueueFairSharing(UsageLedger ledger, Clock clock, ConfigurationIndex configuration, QueueManager queues) {
        this.ledger = ledger;
        this.clock = clock;
        this.configuration = configuration;
        this.queues = queues;
    }

    /** Whether the settings turn admission fair sharing on (for the ClusterQueues whose mode asks for it). */
    public boolean enabled() {
        return ledger != null;
    }

    /**
     * Restores what was persisted of a LocalQueue's usage (after a restart or a change of leader); before its
     * workloads, or they are reordered.
     */
    public void restore(LocalQueueUsage usage) {
        if (ledger != null && ledger.restore(usage, clock.instant())) {
            usageChanged(usage.key());
        }
    }

    /** The LocalQueues whose consumed resources changed since the last call, for the adapter to persist. */
    public List<LocalQueueUsage> takeChanged() {
        return ledger == null ? List.of() : ledger.takeChanged();
    }

    /**
     * A LocalQueue's consumed resources as the next cycle will order by them (entry penalties not yet settled
     * included), when admission fair sharing is on.
     */
    public Optional<LocalQueueUsage> usage(String namespace, String name) {
        return ledger == null ? Optional.empty() : Optional.ofNullable(ledger.usage(namespace + "/" + name));
    }

    /** Whether a ClusterQueue orders its workloads by LocalQueue usage: its mode says so and the settings allow it. */
    boolean appliesTo(String clusterQueue) {
        ClusterQueueSpec spec = configuration.clusterQueue(clusterQueue);
        return ledger != null && spec != null && spec.admissionMode() == AdmissionMode.UsageBasedAdmissionFairSharing;
    }

    /** The usage score of a LocalQueue: lower goes first; NaN when admission fair sharing is off. */
    double score(String localQueueKey) {
        return ledger == null ? Double.NaN : ledger.score(localQueueKey);
    }

    /** How a ClusterQueue's queue orders its LocalQueues, or null when by queue order alone. */
    ToDoubleFunction<String> usageOrder(String clusterQueue) {
        return appliesTo(clusterQueue) ? ledger::score : null;
    }

    /** A candidate's LocalQueue usage for preemption ordering: NaN unless its ClusterQueue uses admission fair sharing. */
    double preemptionUsage(AdmittedWorkload w) {
        return appliesTo(w.clusterQueue()) ? ledger.score(w.workload().localQueueKey()) : Double.NaN;
    }

    /** Kueue's entry penalty: the workload just admitted through an admission fair sharing queue charges its LocalQueue. */
    void chargeEntryPenalty(Workload w, String clusterQueue, Map<FlavorResource, Long> usage) {
        if (appliesTo(clusterQueue) && ledger.chargeEntryPenalty(w.localQueueKey(), w.uid(), usage)) {
            queues.queue(clusterQueue).usageChanged(w.localQueueKey());
        }
    }

    void localQueueApplied(LocalQueueSpec localQueue) {
        if (ledger != null && ledger.localQueue(localQueue, clock.instant())) {
            queues.queue(localQueue.clusterQueue()).usageChanged(localQueue.key());
        }
    }

    void localQueueRemoved(String key) {
        if (ledger != null) {
            ledger.removeLocalQueue(key);
        }
    }

    void admitted(AdmittedWorkload a) {
        if (ledger != null) {
            ledger.admitted(a.workload().localQueueKey(), a.usage());
        }
    }

    void released(AdmittedWorkload a) {
        if (ledger != null) {
            String lq = a.workload().localQueueKey();
            ledger.released(lq, a.usage());
            if (ledger.dropEntryPenalty(lq, a.uid())) {
                usageChanged(lq);
            }
        }
    }

    /** Before a cycle: the last cycle's entry penalties settle, and every LocalQueue is sampled when it is time. */
    void beforeCycle() {
        if (ledger == null) {
            return;
        }
        Instant now = clock.instant();
        ledger.settle(now).forEach(this::usageChanged);
        if (ledger.sampleIfDue(now)) {
            queues.all().values().forEach(PendingQueue::usageChanged);
        }
    }

    /** The ledger of {@code localQueueKeys} alone, for a copy of the state; null when off. */
    UsageLedger copyOf(Collection<String> localQueueKeys) {
        return ledger == null ? null : ledger.copyOf(localQueueKeys);
    }

    private void usageChanged(String localQueueKey) {
        LocalQueueSpec lq = configuration.localQueue(localQueueKey);
        if (lq != null) {
            queues.queue(lq.clusterQueue()).usageChanged(localQueueKey);
        }
    }
}
