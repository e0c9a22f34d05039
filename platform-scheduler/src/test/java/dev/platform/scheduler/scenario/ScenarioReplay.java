package dev.platform.scheduler.scenario;

import dev.platform.scheduler.scenario.EventualOutcome.Admitted;
import dev.platform.scheduler.scenario.EventualOutcome.Final;
import dev.platform.scheduler.scenario.EventualOutcome.Pending;
import dev.platform.scheduler.scenario.EventualOutcome.Phase;
import dev.platform.scheduler.scenario.EventualOutcome.Preemption;
import dev.platform.scheduler.scenario.EventualOutcome.SeenPending;
import dev.platform.api.manifest.Quantity;
import dev.platform.scheduler.config.LocalQueueUsageStore;
import dev.platform.scheduler.core.LocalQueueUsage;
import dev.platform.scheduler.scheduling.SchedulingLoop;
import dev.platform.scheduler.testsupport.DatabaseCleaner;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static dev.platform.scheduler.testsupport.YamlTree.map;
import static dev.platform.scheduler.scenario.ScenarioFile.namespace;
import static dev.platform.scheduler.testsupport.YamlTree.str;
import static dev.platform.scheduler.testsupport.YamlTree.strMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Replays one scenario file against the running application over HTTP (see {@link ScenarioRestTest}). */
final class ScenarioReplay {

    private static final Duration SETTLE = Duration.ofSeconds(20);
    private static final Duration POLL = Duration.ofMillis(40);

    private final ScenarioFile scenario;
    private final PlatformClient api;
    private final JdbcClient jdbc;
    private final SchedulingLoop loop;
    private final LocalQueueUsageStore localQueueUsage;
    /** Workload name to namespace, for every workload of the scenario. */
    private final Map<String, String> namespaces = new LinkedHashMap<>();
    /** Workload name to its entry in the file. */
    private final Map<String, Map<String, Object>> workloads = new LinkedHashMap<>();
    /** Workload name to the uid the platform gave it. */
    private final Map<String, String> uids = new LinkedHashMap<>();
    /** The workloads the scenario starts with that nothing preempted, evicted or finished yet. */
    private final Set<String> stillAdmitted = new LinkedHashSet<>();
    private final List<PreemptedWithPriorities> preemptedSoFar = new ArrayList<>();
    /** Workload name to its priority now (a step may change it). */
    private final Map<String, Integer> priorities = new LinkedHashMap<>();

    /** An expected preemption with both parties' priorities when it was decided. */
    private record PreemptedWithPriorities(Preemption preemption, int victimPriority, int preemptorPriority) {
    }

    ScenarioReplay(ScenarioFile scenario, PlatformClient api, JdbcClient jdbc, SchedulingLoop loop,
                   LocalQueueUsageStore localQueueUsage) {
        this.scenario = scenario;
        this.api = api;
        this.jdbc = jdbc;
        this.loop = loop;
        this.localQueueUsage = localQueueUsage;
    }

    void run() {
        DatabaseCleaner.clean(jdbc, loop);
        boolean stopPolicies = scenario.stopsQueues();
        apply(KueueManifests.configuration(scenario, !stopPolicies));
        admitInOrder();
        if (stopPolicies) {
            apply(KueueManifests.configuration(scenario, true));
        }
        storeConsumedResources();
        submitPending();
        for (Phase phase : EventualOutcome.phases(scenario)) {
            phase.actions().forEach(this::act);
            phase.preempted().forEach(p -> preemptedSoFar.add(new PreemptedWithPriorities(p,
                    priorities.get(p.victim()), priorities.get(p.preemptor()))));
            phase.preempted().forEach(p -> stillAdmitted.remove(p.victim()));
            stillAdmitted.removeAll(phase.evicted().keySet());
            await().atMost(SETTLE).pollInterval(POLL).untilAsserted(() -> check(phase));
            // It must also hold once the loop has run another full cycle on a state rebuilt from the database.
            loop.quiesced(() -> { }).join();
            loop.quiesced(() -> { }).join();
            check(phase);
        }
    }

    /** One step action through the API, as an operator would take it (kueuectl stop/resume, kubectl patch). */
    private void act(Map<String, Object> action) {
        Response response;
        if (action.containsKey("finish")) {
            String name = str(action.get("finish"));
            response = api.delete(path(name));
            stillAdmitted.remove(name);
        } else if (action.containsKey("deactivate")) {
            response = api.post(path(str(action.get("deactivate"))) + "/stop", "application/json", "");
        } else if (action.containsKey("activate")) {
            response = api.post(path(str(action.get("activate"))) + "/resume", "application/json", "");
        } else if (action.containsKey("setPriority")) {
            String name = str(action.get("setPriority"));
            int priority = ((Number) action.get("priority")).intValue();
            response = api.send("PATCH", path(name), Map.of(), "application/merge-patch+json",
                    "{\"metadata\": {\"labels\": {\"kueue.x-k8s.io/priority-class\": \""
                            + KueueManifests.priorityClass(priority) + "\"}}}");
            priorities.put(name, priority);
        } else if (action.containsKey("stopClusterQueue")) {
            response = api.post("/api/v1/clusterqueues/" + str(action.get("stopClusterQueue")) + "/stop?drain="
                    + Boolean.TRUE.equals(action.get("drain")), "application/json", "");
        } else if (action.containsKey("resumeClusterQueue")) {
            response = api.post("/api/v1/clusterqueues/" + str(action.get("resumeClusterQueue")) + "/resume",
                    "application/json", "");
        } else if (action.containsKey("stopLocalQueue")) {
            response = api.post(localQueuePath(action, "stopLocalQueue") + "/stop?drain="
                    + Boolean.TRUE.equals(action.get("drain")), "application/json", "");
        } else {
            response = api.post(localQueuePath(action, "resumeLocalQueue") + "/resume", "application/json", "");
        }
        assertThat(response.status()).as(where(action.toString()) + response.body()).isEqualTo(200);
    }

    private static String localQueuePath(Map<String, Object> action, String key) {
        return "/api/v1/namespaces/" + namespace(action) + "/localqueues/" + str(action.get(key));
    }

    private void apply(String yaml) {
        Response applied = api.postYaml("/api/v1/manifests", yaml);
        assertThat(applied.status()).as(where("POST /manifests") + applied.body() + "\n" + yaml).isEqualTo(200);
    }

    /** The workloads holding quota at the start, submitted one at a time: each must be admitted as the file says. */
    private void admitInOrder() {
        for (Map<String, Object> w : scenario.section("admitted")) {
            String name = str(w.get("name"));
            namespaces.put(name, namespace(w));
            workloads.put(name, w);
            priorities.put(name, priority(w));
            Response submitted = api.postYaml("/api/v1/namespaces/" + namespace(w) + "/workloads",
                    KueueManifests.yaml(KueueManifests.workload(w)));
            assertThat(submitted.status()).as(where("submit admitted " + name) + submitted.body()).isEqualTo(201);
            JsonNode status = await().atMost(SETTLE).pollInterval(POLL)
                    .until(() -> workload(name), s -> "Admitted".equals(s.get("state").asString()));
            map(w.get("flavors")).forEach((podSet, flavors) -> assertThat(flavors(status, podSet))
                    .as(where("admitted " + name + " is not reproducible: flavors of " + podSet))
                    .isEqualTo(strMap(flavors)));
            stillAdmitted.add(name);
        }
    }

    /**
     * What the file's LocalQueues consumed, stored as of now between two cycles; the loop then rebuilds its state
     * from the database, as after a restart, so that it orders by these and not by what admitting the file's
     * admitted workloads charged.
     */
    private void storeConsumedResources() {
        List<LocalQueueUsage> usages = new ArrayList<>();
        Instant now = Instant.now();
        for (Map<String, Object> lq : scenario.section("localQueues")) {
            if (lq.containsKey("consumedResources")) {
                Map<String, Double> consumed = new LinkedHashMap<>();
                strMap(lq.get("consumedResources")).forEach((resource, quantity) ->
                        consumed.put(resource, (double) Quantity.parse(quantity).milliValue()));
                usages.add(new LocalQueueUsage(namespace(lq), str(lq.get("name")), consumed, now));
            }
        }
        if (!usages.isEmpty()) {
            loop.quiesced(() -> localQueueUsage.write(usages)).join();
        }
    }

    /**
     * The pending workloads in list order, in one request: {@code POST /manifests} stores them in one
     * transaction, so the loop's next cycle sees all of them, as the file's first cycle does.
     */
    private void submitPending() {
        List<Map<String, Object>> docs = new ArrayList<>();
        for (Map<String, Object> w : scenario.section("pending")) {
            namespaces.put(str(w.get("name")), namespace(w));
            workloads.put(str(w.get("name")), w);
            priorities.put(str(w.get("name")), priority(w));
            docs.add(KueueManifests.workload(w));
        }
        if (!docs.isEmpty()) {
            apply(KueueManifests.yaml(docs));
        }
        for (String name : namespaces.keySet()) {
            JsonNode status = workload(name);
            uids.put(name, status.get("uid").asString());
            assertThat(status.get("priority").asInt()).as(where(name + " priority")).isEqualTo(priorities.get(name));
        }
    }

    private void check(Phase phase) {
        phase.finals().forEach(this::checkFinal);
        for (String name : stillAdmitted) {
            assertThat(workload(name).get("state").asString()).as(where(name + " keeps its quota")).isEqualTo("Admitted");
        }
        phase.evicted().forEach((name, reason) -> {
            JsonNode status = workload(name);
            assertThat(status.get("state").asString()).as(where(name + " evicted")).isNotEqualTo("Admitted");
            assertThat(events(name)).as(where(name + " evicted" + (reason == null ? "" : " with reason " + reason)))
                    .anyMatch(e -> "Evicted".equals(e.get("type").asString())
                            && (reason == null || reason.equals(e.get("reason").asString())));
        });
        for (SeenPending seen : phase.seen()) {
            assertThat(events(seen.workload()))
                    .as(where(seen.workload() + " was pending with " + seen.reason() + " (" + seen.message() + ")"))
                    .anyMatch(e -> seen.reason().equals(e.get("reason").asString())
                            && (seen.message() == null || e.get("message").asString().contains(withUids(seen.message()))));
        }
        checkPreemptions();
    }

    private void checkFinal(String name, Final expected) {
        JsonNode status = workload(name);
        String state = status.get("state").asString();
        if (expected instanceof Admitted admitted) {
            assertThat(state).as(where(name + " state (" + status.at("/pendingReason") + ")")).isEqualTo("Admitted");
            Map<String, Object> spec = admitted.spec();
            if (spec.containsKey("clusterQueue")) {
                assertThat(status.at("/admission/clusterQueue").asString()).as(where(name + " clusterQueue"))
                        .isEqualTo(str(spec.get("clusterQueue")));
            }
            map(spec.get("flavors")).forEach((podSet, flavors) -> assertThat(flavors(status, podSet))
                    .as(where(name + " flavors of " + podSet)).isEqualTo(strMap(flavors)));
            map(spec.get("counts")).forEach((podSet, count) -> assertThat(podSet(status, podSet).get("count").asInt())
                    .as(where(name + " count of " + podSet)).isEqualTo(((Number) count).intValue()));
        } else if (expected instanceof EventualOutcome.Inactive) {
            assertThat(state).as(where(name + " state")).isEqualTo("Pending");
            assertThat(status.get("active").asBoolean()).as(where(name + " active")).isFalse();
            assertThat(status.at("/pendingReason/code").asString()).as(where(name + " pending reason"))
                    .isEqualTo("Deactivated");
            assertThat(status.get("positionInClusterQueue").isNull()).as(where(name + " is in no queue")).isTrue();
        } else if (expected instanceof Pending pending) {
            assertThat(state).as(where(name + " state")).isEqualTo("Pending");
            assertThat(status.at("/pendingReason/code").asString())
                    .as(where(name + " pending reason (" + status.at("/pendingReason/message") + ")"))
                    .isEqualTo(pending.code());
        }
    }

    private void checkPreemptions() {
        JsonNode items = api.get("/api/v1/preemptions?limit=500").json().get("items");
        Map<String, JsonNode> actual = new LinkedHashMap<>();
        for (JsonNode event : items) {
            String key = event.at("/victim/name").asString() + " by " + event.at("/preemptor/name").asString() + " "
                    + event.get("reason").asString();
            actual.put(key, event);
        }
        assertThat(new TreeSet<>(actual.keySet())).as(where("preemptions"))
                .isEqualTo(preemptedSoFar.stream().map(p -> p.preemption().key())
                        .collect(Collectors.toCollection(TreeSet::new)));
        assertThat(items.size()).as(where("one preemption event per victim")).isEqualTo(preemptedSoFar.size());
        for (PreemptedWithPriorities p : preemptedSoFar) {
            Preemption expected = p.preemption();
            JsonNode event = actual.get(expected.key());
            checkParty(event.get("victim"), expected.victim(), p.victimPriority());
            checkParty(event.get("preemptor"), expected.preemptor(), p.preemptorPriority());
            if (expected.message() != null) {
                assertThat(event.get("message").asString()).as(where("message of " + expected.key()))
                        .contains(withUids(expected.message()));
            }
        }
    }

    private void checkParty(JsonNode party, String name, int priority) {
        Map<String, Object> w = workloads.get(name);
        String what = where("preemption event party " + name);
        assertThat(party.get("uid").asString()).as(what + "uid").isEqualTo(uids.get(name));
        assertThat(party.get("namespace").asString()).as(what + "namespace").isEqualTo(namespace(w));
        assertThat(party.get("priority").asInt()).as(what + "priority").isEqualTo(priority);
        assertThat(party.get("clusterQueue").asString()).as(what + "clusterQueue").isEqualTo(clusterQueue(w));
    }

    private String clusterQueue(Map<String, Object> w) {
        return scenario.section("localQueues").stream()
                .filter(lq -> namespace(lq).equals(namespace(w)) && str(lq.get("name")).equals(str(w.get("queue"))))
                .map(lq -> str(lq.get("clusterQueue"))).findFirst().orElseThrow();
    }

    /** The files name the preemptor by its name, the core's uid; the platform gives real uids. */
    private String withUids(String message) {
        String out = message;
        for (Map.Entry<String, String> uid : uids.entrySet()) {
            out = out.replace("(UID: " + uid.getKey() + ")", "(UID: " + uid.getValue() + ")");
        }
        return out;
    }

    private static Map<String, String> flavors(JsonNode status, String podSet) {
        return podSet(status, podSet).get("flavors").propertyStream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().asString()));
    }

    private static JsonNode podSet(JsonNode status, String name) {
        for (JsonNode assignment : status.at("/admission/podSetAssignments")) {
            if (name.equals(assignment.get("name").asString())) {
                return assignment;
            }
        }
        throw new AssertionError("no pod set assignment " + name + " in " + status);
    }

    private List<JsonNode> events(String name) {
        Response events = api.get(path(name) + "/events");
        assertThat(events.status()).as(where("events of " + name)).isEqualTo(200);
        List<JsonNode> out = new ArrayList<>();
        events.json().get("items").forEach(out::add);
        return out;
    }

    private JsonNode workload(String name) {
        Response status = api.get(path(name));
        assertThat(status.status()).as(where("status of " + name) + status.body()).isEqualTo(200);
        return status.json();
    }

    private String path(String name) {
        return "/api/v1/namespaces/" + namespaces.getOrDefault(name, "default") + "/workloads/" + name;
    }

    private static int priority(Map<String, Object> workload) {
        return ((Number) workload.getOrDefault("priority", 0)).intValue();
    }

    private String where(String what) {
        return scenario.file() + " (" + scenario.name() + "): " + what + ": ";
    }
}
