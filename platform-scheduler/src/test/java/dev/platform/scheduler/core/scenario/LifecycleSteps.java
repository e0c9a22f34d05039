package dev.platform.scheduler.core.scenario;

import dev.platform.api.reason.EvictionReason;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.lifecycle.AdmittedRun;
import dev.platform.scheduler.core.lifecycle.LifecycleDecision;
import dev.platform.scheduler.core.lifecycle.LifecycleTimers;
import dev.platform.scheduler.core.lifecycle.PodsReady;
import dev.platform.scheduler.core.lifecycle.RequeuingStrategy;
import dev.platform.scheduler.core.lifecycle.RequeuingTimestamp;
import dev.platform.scheduler.core.lifecycle.WaitForPodsReady;
import dev.platform.scheduler.core.model.Workload;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import static dev.platform.scheduler.testsupport.YamlTree.map;
import static dev.platform.scheduler.testsupport.YamlTree.str;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lifecycle part of a scenario (its {@code waitForPodsReady} and {@code cluster} keys, the {@code podsReady},
 * {@code podsNotReady} and {@code startFailed} actions, the {@code lifecycle} expectations): the core's lifecycle
 * timers, driven as the scheduling loop drives them, with the decisions applied to the state the way the change
 * feed brings them back (quota freed; a requeued workload held until its backoff ends, queued at its eviction time
 * under {@code timestamp: Eviction}; a deactivated or failed one gone).
 */
final class LifecycleSteps {

    private final Scenario s;
    private final LifecycleTimers timers;
    /** Whether admitted workloads are started in a cluster (whose pods the steps report), or quota-only. */
    private final boolean cluster;
    private final Map<String, Integer> requeueCounts = new HashMap<>();
    private final Map<String, Instant> admittedAt = new HashMap<>();
    private final Map<String, PodsReady> podsReady = new HashMap<>();
    private final Map<String, Instant> podsReadyChangedAt = new HashMap<>();

    /** A lifecycle decision of a step, and when it was taken. */
    record Decided(LifecycleDecision decision, Instant at) {
    }

    LifecycleSteps(Scenario s) {
        this.s = s;
        this.timers = new LifecycleTimers(settings(map(s.doc.get("waitForPodsReady"))));
        this.cluster = Boolean.TRUE.equals(s.doc.get("cluster"));
        s.state.admittedRegistry().all().forEach(a -> admitted(a.workload().uid(), a.admittedAt()));
    }

    /** Kueue's waitForPodsReady keys, Kueue 0.19's defaults for those absent. */
    static WaitForPodsReady settings(Map<String, Object> w) {
        WaitForPodsReady d = WaitForPodsReady.KUEUE_DEFAULTS;
        RequeuingStrategy ds = d.requeuingStrategy();
        Map<String, Object> rs = map(w.get("requeuingStrategy"));
        Duration timeout = w.containsKey("timeout") ? Scenario.duration(str(w.get("timeout"))) : d.timeout();
        Object limit = rs.get("backoffLimitCount");
        return new WaitForPodsReady(!Boolean.FALSE.equals(w.get("enable")), timeout,
                w.containsKey("recoveryTimeout") ? Scenario.duration(str(w.get("recoveryTimeout"))) : timeout,
                new RequeuingStrategy(rs.containsKey("timestamp")
                        ? RequeuingTimestamp.valueOf(str(rs.get("timestamp"))) : ds.timestamp(),
                        ((Number) rs.getOrDefault("backoffBaseSeconds", ds.backoffBaseSeconds())).intValue(),
                        ((Number) rs.getOrDefault("backoffMaxSeconds", ds.backoffMaxSeconds())).intValue(),
                        limit == null ? ds.backoffLimitCount() : Integer.valueOf(((Number) limit).intValue())));
    }

    /** The admissions of a cycle start their clocks. */
    void cycleRan(CycleResult result) {
        Instant now = s.clock.instant();
        for (Decision.Admit a : result.admitted()) {
            admitted(a.workload().uid(), now);
        }
    }

    private void admitted(String uid, Instant at) {
        admittedAt.put(uid, at);
        podsReady.put(uid, PodsReady.WaitForStart);
        podsReadyChangedAt.remove(uid);
        track(uid);
    }

    /** Applies one action of a step; false when it is not a lifecycle action. */
    boolean apply(Map<String, Object> action, Map<String, Decided> decided) {
        Instant now = s.clock.instant();
        if (action.containsKey("podsReady")) {
            podsChanged(str(action.get("podsReady")), PodsReady.Ready, now);
        } else if (action.containsKey("podsNotReady")) {
            podsChanged(str(action.get("podsNotReady")), PodsReady.WaitForRecovery, now);
        } else if (action.containsKey("startFailed")) {
            Map<String, Object> failed = map(action.get("startFailed"));
            String uid = str(failed.get("workload"));
            if (Boolean.TRUE.equals(failed.get("transient"))) {
                timers.forget(uid);
                LifecycleDecision d = timers.settings().requeuingStrategy().next(uid, requeueCounts.getOrDefault(uid, 0),
                        now, EvictionReason.StartFailed, null, str(failed.get("message")));
                decided.put(uid, new Decided(d, now));
                carryOut(d, now);
            } else {
                forget(uid);
                s.state.workloadFinished(uid);
            }
        } else {
            return false;
        }
        return true;
    }

    /** The deadlines reached at the step's time, carried out. */
    void timersRan(Map<String, Decided> decided) {
        Instant now = s.clock.instant();
        for (LifecycleDecision d : timers.due(now)) {
            decided.put(d.uid(), new Decided(d, now));
            carryOut(d, now);
        }
    }

    private void carryOut(LifecycleDecision d, Instant now) {
        String uid = d.uid();
        forget(uid);
        s.state.workloadFinished(uid);
        if (d instanceof LifecycleDecision.Requeue r) {
            requeueCounts.put(uid, r.requeueState().count());
            Workload w = s.workloads.get(uid);
            Instant queuedAt = timers.settings().requeuingStrategy().timestamp() == RequeuingTimestamp.Eviction
                    ? now : w.queuedAt();
            Workload requeued = new Workload(w.uid(), w.namespace(), w.name(), w.localQueue(), w.priority(), queuedAt,
                    w.podSets(), w.priorityClassName(), w.maximumExecutionTime());
            s.workloads.put(uid, requeued);
            s.state.addPending(requeued, r.requeueState().requeueAt());
        }
    }

    private void podsChanged(String uid, PodsReady state, Instant at) {
        podsReady.put(uid, state);
        podsReadyChangedAt.put(uid, at);
        track(uid);
    }

    private void forget(String uid) {
        timers.forget(uid);
        admittedAt.remove(uid);
    }

    private void track(String uid) {
        Workload w = s.workloads.get(uid);
        timers.track(new AdmittedRun(uid, w.namespace() + "/" + w.name(), admittedAt.get(uid), cluster,
                podsReady.get(uid), podsReadyChangedAt.get(uid), requeueCounts.getOrDefault(uid, 0),
                w.maximumExecutionTime()));
    }

    /**
     * {@code lifecycle: {requeued: {name: {reason, count, backoff}}, deactivated: {name: reason}}}: the exact set of
     * lifecycle decisions of the step; {@code backoff} is the wait from the decision.
     */
    void check(String where, Map<String, Object> expect, Map<String, Decided> decided) {
        Map<String, Object> lifecycle = map(expect.get("lifecycle"));
        Map<String, String> expected = new TreeMap<>();
        map(lifecycle.get("requeued")).forEach((name, spec) -> {
            Map<String, Object> e = map(spec);
            expected.put(name, "requeued " + e.get("reason") + " count " + e.get("count") + " backoff "
                    + Scenario.duration(str(e.get("backoff"))));
        });
        map(lifecycle.get("deactivated")).forEach((name, reason) -> expected.put(name, "deactivated " + reason));
        Map<String, String> actual = new TreeMap<>();
        decided.forEach((uid, d) -> actual.put(uid, d.decision() instanceof LifecycleDecision.Requeue r
                ? "requeued " + r.reason() + " count " + r.requeueState().count() + " backoff "
                + Duration.between(d.at(), r.requeueState().requeueAt())
                : "deactivated " + ((LifecycleDecision.Deactivate) d.decision()).reason()));
        assertThat(actual).as(where + "lifecycle decisions").isEqualTo(expected);
    }

}
