package dev.platform.scheduler.scheduling;

import dev.platform.api.manifest.ProvisioningRequestConfigManifest;
import dev.platform.scheduler.admissioncheck.ProvisioningRequests;
import dev.platform.scheduler.admissioncheck.WorkloadChecks;
import dev.platform.scheduler.commit.DecisionCommitter;
import dev.platform.scheduler.commit.WorkloadDecision;
import dev.platform.scheduler.core.ConfigurationIndex;
import dev.platform.scheduler.core.admissioncheck.AdmissionCheckState;
import dev.platform.scheduler.core.admissioncheck.CheckedReservations;
import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The scheduling loop's step for two-phase admission (Kueue's workload controller for admission checks): the quota
 * reservations that wait for checks are read with their checks' states, given any check their ClusterQueue gained
 * or lost meanwhile, and settled by the core's {@link CheckedReservations}: every check Ready admits the workload
 * (placed and started by the placement that follows), a Retry evicts it and requeues it after the backoff, a
 * Rejected one deactivates it, in one commit fenced by the leader epoch. While no ClusterQueue has checks the step
 * reads nothing. Before they are settled, Kueue's provisioning controller's shortcuts apply to their provisioning
 * checks: without its ProvisioningRequestConfig a check says it is not active, and one with nothing to provision is
 * Ready without a request.
 */
@Component
class AdmissionCheckWatch {

    private final WorkloadChecks checks;
    private final ProvisioningRequests provisioningRequests;
    private final WorkloadTransitions transitions;
    private final DecisionCommitter committer;
    private final LifecycleEvictions evictions;
    private final SchedulingMetrics metrics;
    private final TransactionTemplate transaction;
    private final Clock clock;

    AdmissionCheckWatch(WorkloadChecks checks, ProvisioningRequests provisioningRequests,
                        WorkloadTransitions transitions, DecisionCommitter committer,
                        LifecycleEvictions evictions, SchedulingMetrics metrics, TransactionTemplate transaction,
                        Clock clock) {
        this.checks = checks;
        this.provisioningRequests = provisioningRequests;
        this.transitions = transitions;
        this.committer = committer;
        this.evictions = evictions;
        this.metrics = metrics;
        this.transaction = transaction;
        this.clock = clock;
    }

    /** Of {@code uids}, those whose quota is reserved and who wait for their checks. */
    Set<UUID> awaitingChecks(Collection<UUID> uids) {
        return checks.awaitingChecks(uids);
    }

    /** Settles what the checks decided; true when a workload was admitted or evicted. */
    boolean run(long epoch, SchedulerCache cache) {
        ConfigurationIndex configuration = cache.state().configuration();
        if (!configuration.hasAdmissionChecks()) {
            return false;
        }
        Instant now = clock.instant();
        CheckedReservations reservations = new CheckedReservations();
        Map<String, WorkloadRow> rows = new HashMap<>();
        // read once a turn, and only when a reservation waits for its checks
        Map<String, Optional<ProvisioningRequestConfigManifest>> provisioning = null;
        for (WorkloadChecks.Stored stored : checks.unsettled()) {
            WorkloadRow row = cache.row(stored.uid().toString());
            if (row == null || row.admission() == null) {
                continue;
            }
            Admission admission = CoreMapping.admission(row.admission());
            List<AdmissionCheckState> states = stored.checks();
            ClusterQueueSpec queue = configuration.clusterQueue(stored.clusterQueue());
            if (stored.admittedAt() == null && queue != null) {
                if (provisioning == null) {
                    provisioning = provisioningRequests.configured();
                }
                List<AdmissionCheckState> synced = ProvisioningRequests.withoutRequests(provisioning, row.podSets(),
                        CheckedReservations.sync(states, queue.admissionChecks().checksFor(admission), now), now);
                if (!synced.equals(states)) {
                    checks.replace(stored.uid(), synced);
                    states = synced;
                }
            }
            rows.put(row.uid().toString(), row);
            reservations.track(new CheckedReservations.Reservation(row.uid().toString(),
                    row.namespace() + "/" + row.name(), stored.clusterQueue(), admission, stored.reservedAt(), states,
                    stored.admittedAt() != null, stored.requeueCount()));
        }
        boolean changed = false;
        List<LifecycleWatch.Due> due = new ArrayList<>();
        for (CheckedReservations.Outcome outcome : reservations.due(now)) {
            WorkloadRow row = rows.get(outcome.reservation().uid());
            if (outcome instanceof CheckedReservations.Admitted admitted) {
                transaction.executeWithoutResult(s -> {
                    transitions.checksReady(row.uid(), now);
                    checks.admitted(row.uid(), now);
                });
                metrics.checksReady(row.clusterQueue(), row.priorityClassName(),
                        Duration.between(row.queueTimestamp(), now).abs(), admitted.waited());
                changed = true;
            } else if (outcome instanceof CheckedReservations.Evicted evicted) {
                due.add(new LifecycleWatch.Due(evicted.decision(), row, evictions.decision(evicted.decision(), row,
                        new WorkloadTransitions.Expected.AtVersion(row.version()))));
            }
        }
        if (!due.isEmpty()) {
            DecisionCommitter.Committed committed = committer.commit(epoch,
                    due.stream().map(LifecycleWatch.Due::decision).toList());
            for (LifecycleWatch.Due d : due) {
                if (committed.landed(d.row().uid())) {
                    evictions.landed(d.lifecycle(), d.row());
                    changed = true;
                }
            }
        }
        return changed;
    }
}
