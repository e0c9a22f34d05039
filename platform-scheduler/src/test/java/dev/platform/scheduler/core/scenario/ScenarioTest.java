package dev.platform.scheduler.core.scenario;

import dev.platform.scheduler.core.AdmissionCycle;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.admissioncheck.CheckedReservations;
import dev.platform.scheduler.core.model.PodSetAssignment;
import dev.platform.scheduler.core.model.StopPolicy;
import dev.platform.scheduler.testsupport.YamlTree;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static dev.platform.scheduler.testsupport.YamlTree.list;
import static dev.platform.scheduler.testsupport.YamlTree.map;
import static dev.platform.scheduler.testsupport.YamlTree.str;
import static dev.platform.scheduler.testsupport.YamlTree.strMap;
import static org.assertj.core.api.Assertions.assertThat;

/** Runs every scenario file against the pure core: one cycle, then each follow-up step. */
class ScenarioTest {

    static Stream<Path> scenarios() throws Exception {
        return Scenario.files("/scenarios");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void scenario(Path file) throws IOException {
        Scenario s = Scenario.load(file);
        LifecycleSteps lifecycle = new LifecycleSteps(s);
        CheckSteps checks = new CheckSteps(s);
        CycleResult first = AdmissionCycle.run(s.state);
        lifecycle.cycleRan(first);
        checks.cycleRan(first);
        check(s, "first cycle", first, map(s.doc.get("expect")));
        int n = 0;
        for (Map<String, Object> step : list(s.doc.get("steps"))) {
            n++;
            Map<String, LifecycleSteps.Decided> decided = new LinkedHashMap<>();
            for (Map<String, Object> action : list(step.get("do"))) {
                if (!lifecycle.apply(action, decided) && !checks.apply(action)) {
                    apply(s, action);
                }
            }
            s.clock.advance(step.containsKey("advance") ? Scenario.duration(str(step.get("advance")))
                    : Duration.ofMinutes(1));
            lifecycle.timersRan(decided);
            List<CheckedReservations.Outcome> settled = checks.settle();
            CycleResult result = AdmissionCycle.run(s.state);
            lifecycle.cycleRan(result);
            checks.cycleRan(result);
            String where = s.file + " (" + s.name() + "), step " + n + ": ";
            lifecycle.check(where, map(step.get("expect")), decided);
            checks.check(where, map(step.get("expect")), settled);
            check(s, "step " + n, result, map(step.get("expect")));
        }
    }

    private static void apply(Scenario s, Map<String, Object> action) {
        if (action.containsKey("finish")) {
            s.state.workloadFinished(str(action.get("finish")));
        } else if (action.containsKey("completeEviction")) {
            s.state.evictionCompleted(str(action.get("completeEviction")));
        } else if (action.containsKey("requeueInadmissible")) {
            s.state.requeueInadmissible();
        } else if (action.containsKey("deactivate")) {
            s.state.deactivate(str(action.get("deactivate")));
        } else if (action.containsKey("activate")) {
            s.state.activate(str(action.get("activate")));
        } else if (action.containsKey("setPriority")) {
            s.state.changePriority(str(action.get("setPriority")), ((Number) action.get("priority")).intValue());
        } else if (action.containsKey("stopClusterQueue")) {
            s.setStopPolicy(str(action.get("stopClusterQueue")), stopPolicy(action));
        } else if (action.containsKey("resumeClusterQueue")) {
            s.setStopPolicy(str(action.get("resumeClusterQueue")), StopPolicy.None);
        } else if (action.containsKey("stopLocalQueue")) {
            s.setStopPolicy(namespace(action), str(action.get("stopLocalQueue")), stopPolicy(action));
        } else if (action.containsKey("resumeLocalQueue")) {
            s.setStopPolicy(namespace(action), str(action.get("resumeLocalQueue")), StopPolicy.None);
        } else {
            throw new IllegalArgumentException("unknown action " + action);
        }
    }

    /** {@code drain: true} is HoldAndDrain, as {@code POST .../stop?drain=true}; else Hold. */
    private static StopPolicy stopPolicy(Map<String, Object> action) {
        return Boolean.TRUE.equals(action.get("drain")) ? StopPolicy.HoldAndDrain : StopPolicy.Hold;
    }

    private static String namespace(Map<String, Object> action) {
        return action.containsKey("namespace") ? str(action.get("namespace")) : "default";
    }

    private static void check(Scenario s, String when, CycleResult result, Map<String, Object> expect) {
        String where = s.file + " (" + s.name() + "), " + when + ": ";

        Map<String, Object> expectedAdmitted = map(expect.get("admitted"));
        Map<String, Decision.Admit> admitted = result.admitted().stream()
                .collect(Collectors.toMap(a -> a.workload().name(), a -> a, (a, b) -> a, TreeMap::new));
        assertThat(admitted.keySet()).as(where + "admitted").isEqualTo(new TreeSet<>(expectedAdmitted.keySet()));
        expectedAdmitted.forEach((name, spec) -> {
            Map<String, Object> e = map(spec);
            Decision.Admit a = admitted.get(name);
            if (e.containsKey("clusterQueue")) {
                assertThat(a.admission().clusterQueue()).as(where + name + " clusterQueue").isEqualTo(e.get("clusterQueue"));
            }
            map(e.get("flavors")).forEach((ps, flavors) -> assertThat(podSet(a, ps).flavors())
                    .as(where + name + " flavors of " + ps).isEqualTo(strMap(flavors)));
            map(e.get("counts")).forEach((ps, count) -> assertThat(podSet(a, ps).count())
                    .as(where + name + " count of " + ps).isEqualTo(((Number) count).intValue()));
            assertThat(a.admissionChecks()).as(where + name + " admission checks")
                    .isEqualTo(YamlTree.strList(e.get("admissionChecks")));
        });

        Set<String> expectedPreempted = new TreeSet<>();
        for (Map<String, Object> p : list(expect.get("preempted"))) {
            expectedPreempted.add(p.get("victim") + " by " + p.get("preemptor") + " " + p.get("reason"));
        }
        Set<String> preempted = result.preempted().stream()
                .map(p -> p.workload().name() + " by " + p.preemptor().name() + " " + p.reason())
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(preempted).as(where + "preempted").isEqualTo(expectedPreempted);
        for (Map<String, Object> p : list(expect.get("preempted"))) {
            if (p.containsKey("message")) {
                Decision.Preempt d = result.preempted().stream()
                        .filter(x -> x.workload().name().equals(p.get("victim"))).findFirst().orElseThrow();
                assertThat(d.message()).as(where + "message for " + p.get("victim")).contains(str(p.get("message")));
            }
        }

        map(expect.get("pending")).forEach((name, spec) -> {
            Map<String, Object> e = map(spec);
            List<Decision.Pending> found = result.pending().stream().filter(p -> p.workload().name().equals(name)).toList();
            assertThat(found).as(where + "pending decision for " + name + " in " + result.pending()).hasSize(1);
            Decision.Pending p = found.get(0);
            assertThat(p.reason().name()).as(where + name + " reason (" + p.message() + ")").isEqualTo(e.get("reason"));
            if (e.containsKey("message")) {
                assertThat(p.message()).as(where + name + " message").contains(str(e.get("message")));
            }
            if (e.containsKey("inadmissible")) {
                assertThat(p.inadmissible()).as(where + name + " inadmissible").isEqualTo(e.get("inadmissible"));
            }
        });

        if (expect.containsKey("evicted")) {
            Map<String, String> evicted = result.evicted().stream().collect(Collectors.toMap(e -> e.workload().name(),
                    e -> e.reason().name(), (a, b) -> a, TreeMap::new));
            Map<String, String> expected = YamlTree.evicted(expect.get("evicted"));
            assertThat(evicted.keySet()).as(where + "evicted").isEqualTo(expected.keySet());
            expected.forEach((name, reason) -> {
                if (reason != null) {
                    assertThat(evicted.get(name)).as(where + name + " eviction reason").isEqualTo(reason);
                }
            });
        }
        for (String name : YamlTree.strList(expect.get("inactive"))) {
            assertThat(s.state.isInactive(name)).as(where + name + " is inactive").isTrue();
            assertThat(s.state.queueManager().pendingInOrder(s.queueOfLocalQueue.get(s.workloads.get(name).localQueueKey())))
                    .as(where + name + " is in no queue").noneMatch(w -> w.name().equals(name));
        }
    }

    private static PodSetAssignment podSet(Decision.Admit a, String name) {
        return a.admission().podSetAssignments().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }
}
