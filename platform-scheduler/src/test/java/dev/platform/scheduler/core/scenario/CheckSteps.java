package dev.platform.scheduler.core.scenario;

import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.admissioncheck.AdmissionCheckState;
import dev.platform.scheduler.core.admissioncheck.CheckState;
import dev.platform.scheduler.core.admissioncheck.CheckedReservations;
import dev.platform.scheduler.core.admissioncheck.ProvisioningRequestStatus;
import dev.platform.scheduler.core.admissioncheck.ProvisioningRules;
import dev.platform.scheduler.core.admissioncheck.RetryStrategy;
import dev.platform.scheduler.core.lifecycle.LifecycleDecision;
import dev.platform.scheduler.core.model.AdmissionCheckStrategy;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.Workload;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.platform.scheduler.testsupport.YamlTree.list;
import static dev.platform.scheduler.testsupport.YamlTree.map;
import static dev.platform.scheduler.testsupport.YamlTree.str;
import static dev.platform.scheduler.testsupport.YamlTree.strList;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The admission-check part of a scenario: ClusterQueues' {@code admissionChecks} / {@code admissionChecksStrategy},
 * the {@code provisioningRequestConfigs} (their {@code retryStrategy}, by check name), the {@code setCheck},
 * {@code provisioningRequest} and {@code setAdmissionChecks} actions and the {@code checks} expectations. The core's
 * {@link CheckedReservations}, driven as the scheduling loop drives it: the reservations of a cycle are tracked, a
 * step's check updates are stored, and before the step's cycle the settled reservations are carried out the way the
 * change feed brings them back (an admission changes no quota; a Retry frees the quota and requeues the workload
 * after its backoff, its checks reset for the next reservation; a Rejected one frees it and keeps it inactive).
 */
final class CheckSteps {

    private final Scenario s;
    private final CheckedReservations reservations = new CheckedReservations();
    /** The retry strategy of each provisioning check, by check name. */
    private final Map<String, RetryStrategy> retries = new HashMap<>();
    /** The checks a workload keeps between reservations (Kueue keeps status.admissionChecks across a requeue). */
    private final Map<String, List<AdmissionCheckState>> kept = new HashMap<>();

    CheckSteps(Scenario s) {
        this.s = s;
        for (Map<String, Object> c : list(s.doc.get("provisioningRequestConfigs"))) {
            Map<String, Object> r = map(c.get("retryStrategy"));
            RetryStrategy d = RetryStrategy.KUEUE_DEFAULTS;
            retries.put(str(c.get("check")), new RetryStrategy(
                    ((Number) r.getOrDefault("backoffLimitCount", d.backoffLimitCount())).intValue(),
                    ((Number) r.getOrDefault("backoffBaseSeconds", d.backoffBaseSeconds())).intValue(),
                    ((Number) r.getOrDefault("backoffMaxSeconds", d.backoffMaxSeconds())).intValue()));
        }
    }

    /** A ClusterQueue's {@code admissionChecks} (every flavor) and {@code admissionChecksStrategy} rules. */
    static AdmissionCheckStrategy strategy(Map<String, Object> cq) {
        List<AdmissionCheckStrategy.Rule> rules = new ArrayList<>();
        for (String name : strList(cq.get("admissionChecks"))) {
            rules.add(new AdmissionCheckStrategy.Rule(name, java.util.Set.of()));
        }
        for (Map<String, Object> rule : list(map(cq.get("admissionChecksStrategy")).get("admissionChecks"))) {
            rules.add(new AdmissionCheckStrategy.Rule(str(rule.get("name")),
                    new LinkedHashSet<>(strList(rule.get("onFlavors")))));
        }
        return new AdmissionCheckStrategy(rules);
    }

    /** The reservations of a cycle: the admissions that wait for checks. */
    void cycleRan(CycleResult result) {
        Instant now = s.clock.instant();
        for (Decision.Admit a : result.admitted()) {
            String uid = a.workload().uid();
            if (a.awaitsChecks()) {
                reservations.track(new CheckedReservations.Reservation(uid, a.workload().toString(),
                        a.admission().clusterQueue(), a.admission(), now,
                        CheckedReservations.sync(kept.getOrDefault(uid, List.of()), a.admissionChecks(), now), false, 0));
            }
        }
    }

    /** Applies one action of a step; false when it is not an admission-check action. */
    boolean apply(Map<String, Object> action) {
        Instant now = s.clock.instant();
        if (action.containsKey("setCheck")) {
            Map<String, Object> a = map(action.get("setCheck"));
            update(str(a.get("workload")), str(a.get("check")), c -> c.to(CheckState.valueOf(str(a.get("state"))),
                    str(a.get("message")), null, now));
        } else if (action.containsKey("provisioningRequest")) {
            Map<String, Object> a = map(action.get("provisioningRequest"));
            String uid = str(a.get("workload"));
            String check = str(a.get("check"));
            Map<ProvisioningRequestStatus.Condition, ProvisioningRequestStatus.Reported> conditions =
                    new EnumMap<>(ProvisioningRequestStatus.Condition.class);
            // a condition is its message (status True), or {status: false, message: ...}
            map(a.get("conditions")).forEach((type, c) -> conditions.put(
                    ProvisioningRequestStatus.Condition.valueOf(type), c instanceof Map<?, ?>
                            ? new ProvisioningRequestStatus.Reported(!Boolean.FALSE.equals(map(c).get("status")),
                            str(map(c).get("message")))
                            : new ProvisioningRequestStatus.Reported(true, str(c))));
            ProvisioningRequestStatus status = new ProvisioningRequestStatus(((Number) a.get("attempt")).intValue(),
                    conditions);
            boolean admitted = reservations.get(uid).admitted();
            update(uid, check, c -> ProvisioningRules.next(c, status,
                    retries.getOrDefault(check, RetryStrategy.KUEUE_DEFAULTS), admitted, now));
        } else if (action.containsKey("setAdmissionChecks")) {
            Map<String, Object> a = map(action.get("setAdmissionChecks"));
            ClusterQueueSpec q = s.clusterQueues.get(str(a.get("clusterQueue")));
            ClusterQueueSpec changed = q.withAdmissionChecks(strategy(a));
            s.clusterQueues.put(q.name(), changed);
            s.state.applyClusterQueue(changed);
            reservations.clusterQueueChanged(q.name(), changed.admissionChecks(), now);
        } else {
            return false;
        }
        return true;
    }

    private void update(String uid, String check, java.util.function.UnaryOperator<AdmissionCheckState> change) {
        CheckedReservations.Reservation r = reservations.get(uid);
        assertThat(r).as(uid + " holds a reservation with checks").isNotNull();
        List<AdmissionCheckState> next = new ArrayList<>();
        for (AdmissionCheckState c : r.checks()) {
            next.add(c.name().equals(check) ? change.apply(c) : c);
        }
        reservations.track(r.withChecks(next));
    }

    /** The reservations whose checks settled, carried out on the state before the step's cycle. */
    List<CheckedReservations.Outcome> settle() {
        Instant now = s.clock.instant();
        List<CheckedReservations.Outcome> outcomes = reservations.due(now);
        for (CheckedReservations.Outcome o : outcomes) {
            if (!(o instanceof CheckedReservations.Evicted e)) {
                continue;
            }
            String uid = e.reservation().uid();
            kept.put(uid, e.reservation().checks().stream().map(c -> c.resetOnEviction(now)).toList());
            Workload w = s.workloads.get(uid);
            s.state.workloadFinished(uid);
            if (e.decision() instanceof LifecycleDecision.Requeue r) {
                s.state.addPending(w, r.requeueState().requeueAt());
            } else {
                s.state.addInactive(w);
            }
        }
        return outcomes;
    }

    /**
     * {@code checks: {admitted: [w], requeued: {w: 1m}, deactivated: [w], states: {w: {prov: Pending}}}}: the exact
     * set of outcomes of the step (the backoff of a requeued one counted from the step's time), and the states of the
     * checks of the workloads named.
     */
    void check(String where, Map<String, Object> expect, List<CheckedReservations.Outcome> outcomes) {
        if (!expect.containsKey("checks")) {
            assertThat(outcomes).as(where + "admission check outcomes").isEmpty();
            return;
        }
        Map<String, Object> checks = map(expect.get("checks"));
        Map<String, String> expected = new TreeMap<>();
        strList(checks.get("admitted")).forEach(name -> expected.put(name, "admitted"));
        map(checks.get("requeued")).forEach((name, backoff) -> expected.put(name,
                "requeued after " + Scenario.duration(str(backoff))));
        strList(checks.get("deactivated")).forEach(name -> expected.put(name, "deactivated"));
        Instant now = s.clock.instant();
        Map<String, String> actual = new TreeMap<>();
        for (CheckedReservations.Outcome o : outcomes) {
            String name = o.reservation().uid();
            if (o instanceof CheckedReservations.Admitted) {
                actual.put(name, "admitted");
            } else if (((CheckedReservations.Evicted) o).decision() instanceof LifecycleDecision.Requeue r) {
                actual.put(name, "requeued after " + Duration.between(now, r.requeueState().requeueAt()));
            } else {
                actual.put(name, "deactivated");
            }
        }
        assertThat(actual).as(where + "admission check outcomes").isEqualTo(expected);
        for (Map<String, Object> m : List.of(map(checks.get("messages")))) {
            m.forEach((name, message) -> assertThat(outcomes.stream().filter(o -> o.reservation().uid().equals(name))
                    .map(o -> o instanceof CheckedReservations.Evicted e ? e.decision().message() : "").findFirst()
                    .orElse("")).as(where + name + " eviction message").contains(str(message)));
        }
        map(checks.get("states")).forEach((name, states) -> {
            CheckedReservations.Reservation r = reservations.get(name);
            Map<String, String> actualStates = new TreeMap<>();
            if (r != null) {
                r.checks().forEach(c -> actualStates.put(c.name(), c.state().name()));
            }
            Map<String, String> expectedStates = new TreeMap<>();
            map(states).forEach((check, state) -> expectedStates.put(check, str(state)));
            assertThat(actualStates).as(where + name + " check states").isEqualTo(expectedStates);
        });
    }
}
