package dev.platform.scheduler.scenario;

import dev.platform.scheduler.testsupport.YamlTree;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.platform.scheduler.testsupport.YamlTree.list;
import static dev.platform.scheduler.testsupport.YamlTree.map;
import static dev.platform.scheduler.testsupport.YamlTree.str;
import static dev.platform.scheduler.testsupport.YamlTree.strList;

/**
 * What a scenario's one-cycle expectations mean for the running application, which keeps cycling
 * (the rules are in {@link ScenarioRestTest}'s javadoc). A scenario is replayed in phases: the
 * first cycle together with the follow-up steps that need no outside action, then one phase per
 * step that takes an action through the API (finishes, stops, resumes or re-prioritizes).
 */
final class EventualOutcome {

    static final String WAITING_FOR_PREEMPTED = "WaitingForPreemptedWorkloads";
    static final String NO_LONGER_FITS = "Workload no longer fits after processing another workload";

    /** Where a workload ends up at the end of a phase. */
    sealed interface Final {
    }

    /** Admitted; {@code spec} holds the optional clusterQueue, flavors and counts to check. */
    record Admitted(Map<String, Object> spec) implements Final {
    }

    record Pending(String code) implements Final {
    }

    /** Deactivated: Pending outside its queue, {@code active} false, pending reason Deactivated. */
    record Inactive() implements Final {
    }

    /** A pending decision the workload's timeline must show (message as a substring, may be null). */
    record SeenPending(String workload, String reason, String message) {
    }

    record Preemption(String victim, String preemptor, String reason, String message) {
        String key() {
            return victim + " by " + preemptor + " " + reason;
        }
    }

    /**
     * One phase: the actions to take first through the API (a {@code finish} is a DELETE, the others the stop,
     * resume and priority calls), then what must hold; {@code evicted} maps each evicted workload to its
     * eviction reason (null when not said).
     */
    record Phase(List<Map<String, Object>> actions, Map<String, Final> finals, List<SeenPending> seen,
                 List<Preemption> preempted, Map<String, String> evicted) {
    }

    /** Step actions with an API call; the others (completeEviction, requeueInadmissible) happen by themselves. */
    static final Set<String> API_ACTIONS = Set.of("finish", "deactivate", "activate", "setPriority",
            "stopClusterQueue", "resumeClusterQueue", "stopLocalQueue", "resumeLocalQueue");

    private EventualOutcome() {
    }

    static List<Phase> phases(ScenarioFile scenario) {
        List<Phase> phases = new ArrayList<>();
        Phase current = newPhase(List.of());
        merge(current, map(scenario.doc().get("expect")));
        for (Map<String, Object> step : scenario.section("steps")) {
            List<Map<String, Object>> actions = new ArrayList<>();
            for (Map<String, Object> action : list(step.get("do"))) {
                if (action.keySet().stream().anyMatch(API_ACTIONS::contains)) {
                    actions.add(action);
                }
            }
            if (!actions.isEmpty()) {
                phases.add(current);
                current = newPhase(actions);
            }
            merge(current, map(step.get("expect")));
        }
        phases.add(current);
        return phases;
    }

    private static Phase newPhase(List<Map<String, Object>> actions) {
        return new Phase(actions, new LinkedHashMap<>(), new ArrayList<>(), new ArrayList<>(), new LinkedHashMap<>());
    }

    /** One cycle's expectations, in the order a cycle decides: preemptions, admissions, pending, evictions. */
    private static void merge(Phase phase, Map<String, Object> expect) {
        for (Map<String, Object> p : list(expect.get("preempted"))) {
            Preemption preemption = new Preemption(str(p.get("victim")), str(p.get("preemptor")), str(p.get("reason")),
                    str(p.get("message")));
            phase.preempted().add(preemption);
            // Quota-only: the victim is requeued at once, so its preemptor is admitted by a later cycle.
            phase.finals().put(preemption.preemptor(), new Admitted(Map.of()));
            phase.finals().remove(preemption.victim());
        }
        map(expect.get("admitted")).forEach((name, spec) -> phase.finals().put(name, new Admitted(map(spec))));
        map(expect.get("pending")).forEach((name, spec) -> {
            Map<String, Object> e = map(spec);
            String reason = str(e.get("reason"));
            String message = str(e.get("message"));
            phase.seen().add(new SeenPending(name, reason, message));
            if (WAITING_FOR_PREEMPTED.equals(reason)) {
                phase.finals().put(name, new Admitted(Map.of()));
            } else if (retriedNextCycle(e)) {
                // The next cycle decides again; the one-cycle file says nothing about the end state.
                phase.finals().remove(name);
            } else {
                phase.finals().put(name, new Pending(reason));
            }
        });
        YamlTree.evicted(expect.get("evicted")).forEach((evicted, reason) -> {
            phase.evicted().put(evicted, reason);
            phase.finals().remove(evicted);
        });
        for (String inactive : strList(expect.get("inactive"))) {
            phase.finals().put(inactive, new Inactive());
        }
    }

    private static boolean retriedNextCycle(Map<String, Object> pending) {
        return Boolean.FALSE.equals(pending.get("inadmissible"))
                || String.valueOf(pending.get("message")).contains(NO_LONGER_FITS);
    }
}
