package dev.platform.scheduler.forecast;

import dev.platform.scheduler.core.forecast.SimulatedClock;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.nullValue;

/**
 * Replays a {@link ReplayTrace} through the running scheduler and the simulated cluster, in discrete time: the
 * clock stands still while the platform works (submissions, admissions, starts, finishes reported by the agent)
 * and jumps to the next event once everything has settled. At each step, every workload submitted then and, every
 * {@link #SAMPLE_EVERY}, every workload still waiting has its forecast read from the visibility API; the
 * admissions that followed are read from the database at the end.
 */
final class ForecastReplay {

    static final Instant START = Instant.parse("2026-06-01T00:00:00Z");
    static final Duration SAMPLE_EVERY = Duration.ofMinutes(15);
    static final String NAMESPACE = "replay";
    private static final List<String> QUEUES = List.of("team-a", "team-b", "team-c");
    private static final Duration PATIENCE = Duration.ofSeconds(120);

    private final PlatformClient api;
    private final JdbcClient jdbc;
    private final ForecastService forecasts;
    private final SimulatedClock clock;
    private final ReplayTrace trace;

    private final Map<String, ReplayTrace.Arrival> arrivals = new HashMap<>();
    /** Every admission of each workload, in order. */
    private final Map<String, List<Instant>> admissions = new HashMap<>();
    private final Map<String, Integer> finishedByClass = new HashMap<>();
    private final List<Recorded> recorded = new ArrayList<>();
    private int withoutEstimate;

    private record Recorded(String name, Instant at, JsonNode forecast) {
    }

    /** A workload holding quota: when its current admission began. */
    private record Holding(String name, Instant since) {
    }

    ForecastReplay(PlatformClient api, JdbcClient jdbc, ForecastService forecasts, SimulatedClock clock, ReplayTrace trace) {
        this.api = api;
        this.jdbc = jdbc;
        this.forecasts = forecasts;
        this.clock = clock;
        this.trace = trace;
        trace.arrivals().forEach(a -> arrivals.put(a.name(), a));
    }

    static String configuration() {
        StringBuilder yaml = new StringBuilder("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: default}
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: WorkloadPriorityClass
                metadata: {name: high}
                value: 1000
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: WorkloadPriorityClass
                metadata: {name: low}
                value: 100
                """);
        for (String team : QUEUES) {
            String cohort = team.equals("team-c") ? "" : "\n  cohort: research";
            yaml.append("""
                    ---
                    apiVersion: kueue.x-k8s.io/v1beta1
                    kind: ClusterQueue
                    metadata: {name: %s}
                    spec:%s
                      namespaceSelector: {}
                      preemption: {withinClusterQueue: LowerPriority, reclaimWithinCohort: Any}
                      resourceGroups:
                      - coveredResources: [cpu]
                        flavors: [{name: default, resources: [{name: cpu, nominalQuota: "8"}]}]
                    ---
                    apiVersion: kueue.x-k8s.io/v1beta1
                    kind: LocalQueue
                    metadata: {name: %s, namespace: %s}
                    spec: {clusterQueue: %s}
                    """.formatted(team, cohort, team, NAMESPACE, team));
        }
        return yaml.toString();
    }

    ReplayReport run() throws Exception {
        PlatformClient.Response applied = api.postYaml("/api/v1/manifests", configuration());
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        TreeSet<Instant> arrivalTimes = new TreeSet<>();
        trace.arrivals().forEach(a -> arrivalTimes.add(START.plus(a.at())));
        Instant now = START;
        Instant nextSample = START;
        int submitted = 0;
        while (true) {
            clock.set(now);
            List<String> submittedNow = new ArrayList<>();
            while (submitted < trace.arrivals().size() && !START.plus(trace.arrivals().get(submitted).at()).isAfter(now)) {
                ReplayTrace.Arrival a = trace.arrivals().get(submitted++);
                PlatformClient.Response response = api.postYaml("/api/v1/namespaces/" + NAMESPACE + "/workloads", jobSet(a));
                assertThat(response.status()).as(response.body()).isEqualTo(201);
                submittedNow.add(a.name());
            }
            settle(now);
            List<Holding> holding = observe();
            boolean sampling = !now.isBefore(nextSample);
            if (sampling) {
                nextSample = now.plus(SAMPLE_EVERY);
            }
            boolean waiting = record(now, submittedNow, sampling);
            Instant next = arrivalTimes.higher(now);
            for (Holding h : holding) {
                Instant end = h.since().plus(arrivals.get(h.name()).runtime());
                next = next == null || end.isBefore(next) ? end : next;
            }
            if (waiting && (next == null || nextSample.isBefore(next))) {
                next = nextSample;
            }
            if (next == null) {
                break;
            }
            now = next;
        }
        assertThat(finishedByClass.values().stream().mapToInt(Integer::intValue).sum())
                .as("every workload of the trace finished").isEqualTo(trace.arrivals().size());
        jdbc.sql("SELECT name, finished_at FROM workload WHERE namespace = ? AND state = 'Finished'").param(NAMESPACE)
                .query((rs, i) -> Map.entry(rs.getString(1), rs.getTimestamp(2).toInstant())).list()
                .forEach(finished -> assertThat(finished.getValue())
                        .as(finished.getKey() + " finished its runtime after the last admission the replay saw, "
                                + admissions.get(finished.getKey()))
                        .isEqualTo(lastAdmission(finished.getKey()).plus(arrivals.get(finished.getKey()).runtime())));
        return report();
    }

    private Instant lastAdmission(String name) {
        List<Instant> times = admissions.getOrDefault(name, List.of());
        return times.isEmpty() ? Instant.MIN : times.get(times.size() - 1);
    }

    private static String jobSet(ReplayTrace.Arrival a) {
        ReplayTrace.WorkloadClass c = a.workloadClass();
        return Manifests.onePodJobSet(a.name(),
                Map.of("kueue.x-k8s.io/queue-name", c.localQueue(), "kueue.x-k8s.io/priority-class", c.priorityClass()),
                Map.of("platform.dev/simulated-runtime", a.runtime().toMinutes() + "m"), Integer.toString(c.cpu()));
    }

    /**
     * Waits until the platform has done everything the present calls for: what finished is reported Finished,
     * what was admitted runs, every command is acknowledged; then has the forecast made from that state, and starts
     * over if anything changed meanwhile.
     */
    private void settle(Instant now) throws Exception {
        while (true) {
            await().atMost(PATIENCE).pollInterval(Duration.ofMillis(20)).until(() -> busyWith(now), nullValue());
            long seq = lastChange();
            forecasts.refresh().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            if (lastChange() == seq && busyWith(now) == null) {
                return;
            }
        }
    }

    /** What the platform still has to do at {@code now}, or null when nothing. */
    private String busyWith(Instant now) {
        List<String> starting = jdbc.sql("SELECT name FROM workload WHERE namespace = ? AND state = 'Admitted'")
                .param(NAMESPACE).query(String.class).list();
        List<String> commands = jdbc.sql("SELECT type || ' ' || workload_uid || ' ' || state FROM agent_command"
                + " WHERE state IN ('Pending', 'Delivered')").query(String.class).list();
        List<String> due = holding().stream()
                .filter(h -> !h.since().plus(arrivals.get(h.name()).runtime()).isAfter(now)).map(Holding::name).toList();
        return starting.isEmpty() && commands.isEmpty() && due.isEmpty() ? null
                : "at " + now + ": starting " + starting + ", commands " + commands + ", due to finish " + due;
    }

    private List<Holding> holding() {
        return jdbc.sql("SELECT name, admitted_at FROM workload WHERE namespace = ? AND state IN ('Admitted', 'Running')")
                .param(NAMESPACE)
                .query((rs, i) -> new Holding(rs.getString(1), rs.getTimestamp(2).toInstant())).list();
    }

    private long lastChange() {
        return jdbc.sql("SELECT coalesce(max(change_seq), 0) FROM workload").query(Long.class).single();
    }

    /** Notes the admissions made since the last step and the finishes; returns the workloads holding quota. */
    private List<Holding> observe() {
        List<Holding> holding = holding();
        for (Holding h : holding) {
            List<Instant> times = admissions.computeIfAbsent(h.name(), k -> new ArrayList<>());
            if (times.isEmpty() || !times.get(times.size() - 1).equals(h.since())) {
                times.add(h.since());
            }
        }
        finishedByClass.clear();
        jdbc.sql("SELECT name FROM workload WHERE namespace = ? AND state = 'Finished'").param(NAMESPACE)
                .query(String.class).list()
                .forEach(name -> finishedByClass.merge(arrivals.get(name).workloadClass().name(), 1, Integer::sum));
        return holding;
    }

    /**
     * Reads the forecasts of the waiting workloads due for one (just submitted, or all at a sampling point), once
     * the history knows every class; returns whether any workload waits.
     */
    private boolean record(Instant now, List<String> submittedNow, boolean sampling) {
        boolean warm = ReplayTrace.CLASSES.stream()
                .allMatch(c -> finishedByClass.getOrDefault(c.name(), 0) >= ReplayTrace.WARM_UP);
        boolean waiting = false;
        for (String queue : QUEUES) {
            JsonNode items = api.get("/api/v1/clusterqueues/" + queue + "/pendingworkloads?limit=1000").json()
                    .get("items");
            for (JsonNode item : items) {
                waiting = true;
                String name = item.get("name").asString();
                if (!warm || !(sampling || submittedNow.contains(name))) {
                    continue;
                }
                JsonNode forecast = item.get("forecast");
                assertThat(forecast).as("forecast of " + name + " at " + now).isNotNull();
                assertThat(forecast.isNull()).as("forecast of " + name + " at " + now).isFalse();
                if (forecast.get("estimatedAdmissionAt").isNull()) {
                    withoutEstimate++;
                } else {
                    recorded.add(new Recorded(name, now, forecast));
                }
            }
        }
        return waiting;
    }

    private ReplayReport report() {
        List<ReplayReport.Sample> samples = new ArrayList<>();
        for (Recorded r : recorded) {
            Instant actual = admissions.getOrDefault(r.name(), List.of()).stream().filter(t -> t.isAfter(r.at()))
                    .findFirst().orElseThrow(() -> new AssertionError(r.name() + " was never admitted after " + r.at()
                            + "\n" + timeline(r)));
            samples.add(new ReplayReport.Sample(arrivals.get(r.name()).workloadClass().name(), r.name(), r.at(),
                    instant(r.forecast(), "estimatedAdmissionAt"), instant(r.forecast(), "p10"),
                    instant(r.forecast(), "p90"), r.forecast().get("basis").asString(), actual,
                    disturbed(r.name(), r.at(), actual), instant(r.forecast(), "ifNothingArrivesAt"),
                    r.forecast().get("arrivalBasis").asString(),
                    r.forecast().get("message").asString().contains("range widened to hold 80%")));
        }
        return new ReplayReport(trace.spread(), START.plus(trace.arrivalPhase()), samples, withoutEstimate);
    }

    /** What the replay and the database know of a recorded workload: for a failed check. */
    private String timeline(Recorded r) {
        StringBuilder text = new StringBuilder("forecast: " + r.forecast() + "\nadmissions seen by the replay: "
                + admissions.getOrDefault(r.name(), List.of()) + "\nrow: ");
        text.append(jdbc.sql("SELECT state || ' active=' || active || ' created=' || created_at || ' queued='"
                        + " || queue_timestamp || ' admitted=' || coalesce(admitted_at::text, '-') || ' finished='"
                        + " || coalesce(finished_at::text, '-') || ' restarts=' || restarts FROM workload"
                        + " WHERE namespace = ? AND name = ?")
                .param(NAMESPACE).param(r.name()).query(String.class).optional().orElse("none"));
        jdbc.sql("SELECT e.at || ' ' || e.type || '=' || e.status || ' ' || e.reason || ' ' || e.message"
                        + " FROM workload_event e JOIN workload w ON w.uid = e.workload_uid"
                        + " WHERE w.namespace = ? AND w.name = ? ORDER BY e.at, e.id")
                .param(NAMESPACE).param(r.name()).query(String.class).list()
                .forEach(e -> text.append("\nevent: ").append(e));
        jdbc.sql("SELECT at || ' ' || reason || ' ' || preemptor_name || ' preempted ' || victim_name"
                        + " FROM preemption_event WHERE preemptor_name = ? OR victim_name = ? ORDER BY at, id")
                .param(r.name()).param(r.name()).query(String.class).list()
                .forEach(e -> text.append("\npreemption: ").append(e));
        return text.toString();
    }

    /** Whether a workload that arrived after {@code at} was admitted in the same cohort tree by {@code actual}. */
    private boolean disturbed(String name, Instant at, Instant actual) {
        String tree = tree(arrivals.get(name).workloadClass().localQueue());
        for (ReplayTrace.Arrival other : trace.arrivals()) {
            if (!START.plus(other.at()).isAfter(at) || !tree(other.workloadClass().localQueue()).equals(tree)) {
                continue;
            }
            if (admissions.getOrDefault(other.name(), List.of()).stream().anyMatch(t -> !t.isAfter(actual))) {
                return true;
            }
        }
        return false;
    }

    private static String tree(String localQueue) {
        return localQueue.equals("team-c") ? "team-c" : "research";
    }

    private static Instant instant(JsonNode forecast, String field) {
        JsonNode value = forecast.get(field);
        return value == null || value.isNull() ? null : Instant.parse(value.asString());
    }
}
