package dev.platform.scheduler.core.admissioncheck;

import dev.platform.api.reason.DeactivationReason;
import dev.platform.api.reason.EvictionReason;
import dev.platform.scheduler.core.lifecycle.LifecycleDecision;
import dev.platform.scheduler.core.lifecycle.RequeueState;
import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.AdmissionCheckStrategy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Two-phase admission (Kueue's workload controller for admission checks): the workloads holding quota on a
 * ClusterQueue with admission checks, with the state of each check. A reservation becomes an admission once every
 * check is Ready; a check in Retry evicts the workload, which queues again after the longest backoff of its Retry
 * checks; a Rejected check deactivates it. Owned by the scheduling thread, like the state it sits beside.
 */
public final class CheckedReservations {

    /**
     * A workload holding quota on {@code clusterQueue} with {@code checks} (in name order), since {@code reservedAt};
     * {@code admitted} once every check was Ready. {@code requeueCount} is Kueue's requeueState.count, kept as it is
     * by an eviction for a check.
     */
    public record Reservation(String uid, String workload, String clusterQueue, Admission admission,
                              Instant reservedAt, List<AdmissionCheckState> checks, boolean admitted,
                              int requeueCount) {

        public Reservation {
            checks = checks.stream().sorted(Comparator.comparing(AdmissionCheckState::name)).toList();
        }

        public boolean allReady() {
            return checks.stream().allMatch(c -> c.state() == CheckState.Ready);
        }

        public Reservation withChecks(List<AdmissionCheckState> next) {
            return new Reservation(uid, workload, clusterQueue, admission, reservedAt, next, admitted, requeueCount);
        }

        Reservation markAdmitted() {
            return new Reservation(uid, workload, clusterQueue, admission, reservedAt, checks, true, requeueCount);
        }
    }

    /** What the checks of a reservation decided. */
    public sealed interface Outcome permits Admitted, Evicted {
        Reservation reservation();
    }

    /** Every check is Ready: the workload is admitted, {@code waited} after its quota was reserved. */
    public record Admitted(Reservation reservation, Duration waited) implements Outcome {
    }

    /** A check is in Retry (requeued with backoff) or Rejected (deactivated): its quota goes. */
    public record Evicted(Reservation reservation, LifecycleDecision decision) implements Outcome {
    }

    private final Map<String, Reservation> byUid = new HashMap<>();
    /** Reservations whose checks changed since the last {@link #due}, in uid order for a stable outcome. */
    private final Set<String> changed = new TreeSet<>();

    /** A reservation as stored (a cycle's admission committed, a check updated, or the state rebuilt). */
    public void track(Reservation reservation) {
        byUid.put(reservation.uid(), reservation);
        changed.add(reservation.uid());
    }

    /** The workload holds no quota any more (finished, evicted, deleted). */
    public void forget(String uid) {
        byUid.remove(uid);
        changed.remove(uid);
    }

    public Reservation get(String uid) {
        return byUid.get(uid);
    }

    /** Whether {@code uid} holds quota and waits for its checks: reserved, not admitted. */
    public boolean awaitsChecks(String uid) {
        Reservation r = byUid.get(uid);
        return r != null && !r.admitted();
    }

    public Collection<Reservation> all() {
        return byUid.values();
    }

    /**
     * The reservations not yet admitted on {@code clusterQueue}, their checks synchronised with {@code strategy}
     * (a check added to the ClusterQueue while workloads wait for theirs is added to them as Pending, one removed
     * goes); only those that changed are returned, for the adapter to store. Admitted workloads keep their checks,
     * as in Kueue, where the Admitted condition is not taken back.
     */
    public List<Reservation> clusterQueueChanged(String clusterQueue, AdmissionCheckStrategy strategy, Instant now) {
        List<Reservation> resynced = new ArrayList<>();
        for (Reservation r : List.copyOf(byUid.values())) {
            if (r.admitted() || !r.clusterQueue().equals(clusterQueue)) {
                continue;
            }
            List<AdmissionCheckState> next = sync(r.checks(), strategy.checksFor(r.admission()), now);
            if (!next.equals(r.checks())) {
                Reservation updated = r.withChecks(next);
                track(updated);
                resynced.add(updated);
            }
        }
        resynced.sort(Comparator.comparing(Reservation::uid));
        return resynced;
    }

    /**
     * Kueue's syncAdmissionCheckConditions: the workload's checks become exactly {@code required}, those it had
     * keeping their state (and retry count), the new ones Pending since {@code now}; in name order.
     */
    public static List<AdmissionCheckState> sync(List<AdmissionCheckState> current, List<String> required,
                                                 Instant now) {
        Map<String, AdmissionCheckState> byName = current.stream()
                .collect(Collectors.toMap(AdmissionCheckState::name, c -> c, (a, b) -> a, TreeMap::new));
        List<AdmissionCheckState> next = new ArrayList<>();
        for (String name : new TreeSet<>(required)) {
            AdmissionCheckState had = byName.get(name);
            next.add(had != null ? had : AdmissionCheckState.pending(name, now));
        }
        return List.copyOf(next);
    }

    /**
     * What the checks that changed since the last call decided, in uid order: admissions (the reservation is kept,
     * admitted) and evictions (the reservation is forgotten; the workload's checks are reset when its eviction is
     * stored).
     */
    public List<Outcome> due(Instant now) {
        List<Outcome> outcomes = new ArrayList<>();
        for (String uid : changed) {
            Reservation r = byUid.get(uid);
            if (r == null) {
                continue;
            }
            Outcome o = decide(r, now);
            if (o instanceof Admitted) {
                byUid.put(uid, r.markAdmitted());
                outcomes.add(o);
            } else if (o != null) {
                byUid.remove(uid);
                outcomes.add(o);
            }
        }
        changed.clear();
        return outcomes;
    }

    /** Rejected first (Kueue deactivates before it evicts), then Retry, then every check Ready. */
    static Outcome decide(Reservation r, Instant now) {
        List<AdmissionCheckState> rejected = inState(r, CheckState.Rejected);
        if (!rejected.isEmpty()) {
            return new Evicted(r, new LifecycleDecision.Deactivate(r.uid(), DeactivationReason.AdmissionCheck,
                    "The workload is deactivated due to " + message(rejected, CheckState.Rejected)));
        }
        List<AdmissionCheckState> retry = inState(r, CheckState.Retry);
        if (!retry.isEmpty()) {
            Instant requeueAt = now;
            for (AdmissionCheckState c : retry) {
                Instant at = c.lastTransitionTime().plusSeconds(c.requeueAfterSeconds() == null ? 0 : c.requeueAfterSeconds());
                requeueAt = at.isAfter(requeueAt) ? at : requeueAt;
            }
            return new Evicted(r, new LifecycleDecision.Requeue(r.uid(), EvictionReason.AdmissionCheck, null,
                    new RequeueState(r.requeueCount(), requeueAt), "Evicted due to " + message(retry, CheckState.Retry)));
        }
        if (!r.admitted() && r.allReady()) {
            return new Admitted(r, Duration.between(r.reservedAt(), now));
        }
        return null;
    }

    private static List<AdmissionCheckState> inState(Reservation r, CheckState state) {
        return r.checks().stream().filter(c -> c.state() == state).toList();
    }

    /** Kueue's buildAdmissionChecksMessage: {@code AdmissionCheck in Retry state: "prov" (its message)}. */
    static String message(List<AdmissionCheckState> checks, CheckState state) {
        String parts = checks.stream().sorted(Comparator.comparing(AdmissionCheckState::name))
                .map(c -> c.message().isEmpty() ? "\"" + c.name() + "\"" : "\"" + c.name() + "\" (" + c.message() + ")")
                .collect(Collectors.joining("; "));
        return (checks.size() > 1 ? "AdmissionChecks" : "AdmissionCheck") + " in " + state + " state: " + parts;
    }
}
