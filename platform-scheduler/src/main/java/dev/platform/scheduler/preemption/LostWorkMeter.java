package dev.platform.scheduler.preemption;

import dev.platform.api.reason.EvictionReason;
import dev.platform.scheduler.workload.AdmissionCheckStates;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Measures the work evicted workloads lose, from their stored rows and their last checkpoints
 * ({@code platform.dev/last-checkpoint}, kept beside the manifest), counting only the resources of {@code platform.scheduler.lost-work.resources};
 * records it in the {@link LostWorkLedger} and adds it to the counter
 * {@code platform_preemption_lost_work_seconds_total{cluster_queue, reason}}: a preemption's (hotswap victims'
 * included) by its preemption reason, any other eviction's by its eviction reason (or its deactivation's), so that
 * one counter says what evictions cost and its reason label says which.
 */
@Component
public class LostWorkMeter {

    private final WorkloadStore workloads;
    private final AdmissionCheckStates checks;
    private final LostWorkLedger ledger;
    private final Set<String> resources;
    private final MeterRegistry registry;

    public LostWorkMeter(WorkloadStore workloads, AdmissionCheckStates checks, LostWorkLedger ledger,
                         @Value("${platform.scheduler.lost-work.resources:google.com/tpu,nvidia.com/gpu}") List<String> resources,
                         MeterRegistry registry) {
        this.workloads = workloads;
        this.checks = checks;
        this.ledger = ledger;
        this.resources = Set.copyOf(resources);
        this.registry = registry;
    }

    /** What a workload evicted now loses, and the row it was measured from. */
    public record Measured(WorkloadRow workload, LostWork lostWork) {

        /** The ledger's entry for its eviction at {@code at}, for {@code reason} (see {@link LostWorkLedger.Entry}). */
        public LostWorkLedger.Entry entry(Instant at, EvictionReason eviction, String reason) {
            return new LostWorkLedger.Entry(at, workload.uid(), workload.namespace(), workload.name(),
                    workload.clusterQueue(), eviction, reason, lostWork);
        }
    }

    /**
     * The lost work of each workload evicted at {@code now} that holds an admission, read before its eviction clears
     * it; in one statement for any number of workloads. A workload that only reserved quota and waits for its
     * admission checks was never started: it loses nothing.
     */
    public Map<UUID, Measured> of(Collection<UUID> evicted, Instant now) {
        Map<UUID, Measured> lost = new HashMap<>();
        if (evicted.isEmpty()) {
            return lost;
        }
        Set<UUID> neverStarted = checks.awaitingChecks(evicted);
        workloads.findAll(evicted).forEach((uid, row) -> {
            if (neverStarted.contains(uid)) {
                return;
            }
            LostWork work = LostWork.of(row.podSets(), row.admittedAt(), row.lastCheckpoint(), now, resources);
            if (work != null) {
                lost.put(uid, new Measured(row, work));
            }
        });
        return lost;
    }

    /**
     * Appends the entries to the ledger, in the caller's transaction, and adds them to the counters once it commits:
     * evictions rolled back (a priority-only admission that did not land whole) lost nothing.
     */
    public void record(List<LostWorkLedger.Entry> entries) {
        ledger.append(entries);
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    count(entries);
                }
            });
        } else {
            count(entries);
        }
    }

    private void count(List<LostWorkLedger.Entry> entries) {
        for (LostWorkLedger.Entry e : entries) {
            if (e.lostWork().total() <= 0) {
                continue;
            }
            Counter.builder("platform.preemption.lost.work.seconds")
                    .description("Resource-seconds of work lost since their last checkpoint by preemption victims"
                            + " (hotswap included) and by workloads evicted otherwise, by the preemption or eviction"
                            + " reason")
                    .baseUnit("seconds")
                    .tag("cluster_queue", e.clusterQueue() == null ? "" : e.clusterQueue())
                    .tag("reason", e.reason())
                    .register(registry).increment(e.lostWork().total());
        }
    }
}
