package dev.platform.scheduler.reliability;

import dev.platform.scheduler.testsupport.PlatformClient;
import org.awaitility.core.ConditionTimeoutException;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.awaitility.Awaitility.await;

/**
 * What must hold whatever faults happened, read from the database and from the simulated cluster (the agent's
 * {@code /simulation/jobsets}). Each check returns its violations as sentences naming the invariant; the ones
 * that may lag behind a fault (the cluster catching up with a decision) are given {@link #bound} to hold.
 */
final class SoakInvariants {

    /** The agent's line for each command it carries out (a result it answers again is not logged). */
    private static final Pattern EXECUTED = Pattern.compile(
            "^(\\S+).*\\bcommand (\\d+) (START|STOP|RESTART|DELETE) \\S+: (\\S+)");
    private static final Duration LOG_CLOCK_MARGIN = Duration.ofSeconds(2);

    private final JdbcClient jdbc;
    private final Supplier<PlatformClient> agent;
    private final Duration bound;

    SoakInvariants(JdbcClient jdbc, Supplier<PlatformClient> agent, Duration bound) {
        this.jdbc = jdbc;
        this.agent = agent;
        this.bound = bound;
    }

    /**
     * Every check; {@code ledger} gives what the load was told so far (read before and after the database, since the
     * load goes on meanwhile), {@code agentLogs} are the logs of every agent process started so far, one per process.
     */
    List<String> check(Supplier<SoakLoad.Ledger> ledger, List<Path> agentLogs) {
        List<String> violations = new ArrayList<>(lost(ledger));
        violations.addAll(admittedTwice());
        violations.addAll(usage());
        violations.addAll(preemptionsWithoutEviction());
        violations.addAll(commandsIssuedTwice());
        violations.addAll(commandsExecutedTwice(agentLogs));
        violations.addAll(jobSetsWithoutAdmission());
        violations.addAll(admittedWithoutJobSet());
        return violations;
    }

    /** A workload row as the acknowledgements are checked against it. */
    private record Stored(String namespace, String name, String key, boolean deleted) {
    }

    /**
     * Every acknowledged submission exists exactly once, under the name it was submitted with, with the uid it was
     * answered with and the key it was sent with; one the load never asked to delete still holds its name; every
     * deletion answered 2xx holds; no two submissions (two keys) were answered with one uid, so applying a name again
     * after deleting it made a new workload. The acknowledgements and the deletions answered are read before the
     * database, the deletions asked for after it: a deletion sent meanwhile is not taken for a lost workload.
     */
    List<String> lost(Supplier<SoakLoad.Ledger> ledger) {
        SoakLoad.Ledger before = ledger.get();
        Map<String, Stored> stored = new HashMap<>();
        Map<String, Integer> rowsPerKey = new HashMap<>();
        jdbc.sql("SELECT uid::text, namespace, name, idempotency_key, deleted_at IS NOT NULL FROM workload")
                .query((rs, i) -> {
                    Stored row = new Stored(rs.getString(2), rs.getString(3), rs.getString(4), rs.getBoolean(5));
                    if (row.key() != null) {
                        rowsPerKey.merge(row.namespace() + "/" + row.key(), 1, Integer::sum);
                    }
                    return stored.put(rs.getString(1), row);
                }).list();
        Set<String> deletesSent = ledger.get().deletesSent();
        List<String> lost = new ArrayList<>();
        Map<String, String> keyOfUid = new HashMap<>();
        for (SoakLoad.Acknowledged ack : before.submissions()) {
            String submitted = ack.namespace() + "/" + ack.name() + " (key " + ack.key() + ", answered uid " + ack.uid() + ")";
            Stored row = stored.get(ack.uid());
            String otherKey = keyOfUid.put(ack.uid(), ack.key());
            if (otherKey != null && !otherKey.equals(ack.key())) {
                lost.add("one uid answered to two submissions: " + submitted + " and the one with key " + otherKey);
            }
            if (row == null) {
                lost.add("acknowledged submission lost: " + submitted + " is not stored");
            } else if (!row.namespace().equals(ack.namespace()) || !row.name().equals(ack.name())) {
                lost.add("acknowledged submission stored under another name: " + submitted + " is stored as "
                        + row.namespace() + "/" + row.name());
            } else if (!ack.key().equals(row.key())) {
                lost.add("acknowledged submission stored with another key: " + submitted + " has key " + row.key());
            } else if (rowsPerKey.getOrDefault(ack.namespace() + "/" + ack.key(), 0) != 1) {
                lost.add("acknowledged submission stored " + rowsPerKey.get(ack.namespace() + "/" + ack.key())
                        + " times: " + submitted);
            } else if (row.deleted() && !deletesSent.contains(ack.uid())) {
                lost.add("acknowledged submission deleted though nobody deleted it: " + submitted);
            }
        }
        for (String uid : before.deletesAcknowledged()) {
            Stored row = stored.get(uid);
            if (row != null && !row.deleted()) {
                lost.add("acknowledged deletion undone: " + row.namespace() + "/" + row.name() + " (uid " + uid
                        + ") holds its name again");
            }
        }
        return lost;
    }

    /**
     * No workload admitted twice: in each timeline, an admission is ended (evicted, finished) before the next,
     * and nothing is admitted after it finished.
     */
    List<String> admittedTwice() {
        List<String> violations = new ArrayList<>();
        Map<String, String> last = new HashMap<>();
        jdbc.sql("""
                SELECT workload_uid::text, type, id FROM workload_event
                WHERE status = 'True' AND type IN ('Admitted', 'Evicted', 'Finished') ORDER BY workload_uid, id""")
                .query((rs, i) -> {
                    String uid = rs.getString(1);
                    String type = rs.getString(2);
                    String before = last.put(uid, type);
                    if ("Finished".equals(before)) {
                        violations.add("event after the end: workload " + uid + " " + type + " (event " + rs.getLong(3)
                                + ") after Finished");
                    } else if ("Admitted".equals(type) && "Admitted".equals(before)) {
                        violations.add("admitted twice: workload " + uid + " admitted again (event " + rs.getLong(3)
                                + ") while admitted");
                    }
                    return uid;
                }).list();
        return violations;
    }

    /**
     * Usage equals the admitted requests, workload by workload, and no ClusterQueue uses more than its nominal
     * quota plus its borrowing limit (nothing beyond nominal outside a cohort), no cohort more than its queues'
     * nominal quotas.
     */
    List<String> usage() {
        List<String> violations = new ArrayList<>();
        violations.addAll(jdbc.sql("""
                WITH used AS (SELECT workload_uid, sum(amount) AS amount FROM workload_usage GROUP BY 1),
                     requested AS (SELECT w.uid, sum((p ->> 'count')::numeric * (SELECT coalesce(sum(r.value::numeric), 0)
                                                     FROM jsonb_each_text(p -> 'requests') r)) AS amount
                                   FROM workload w, jsonb_array_elements(w.pod_sets) p GROUP BY 1)
                SELECT 'usage is not the admitted request: ' || w.namespace || '/' || w.name || ' ' || w.state
                       || ' uses ' || coalesce(u.amount, 0) || ', requests ' || coalesce(r.amount, 0)
                FROM workload w LEFT JOIN used u ON u.workload_uid = w.uid LEFT JOIN requested r ON r.uid = w.uid
                WHERE (w.state IN ('Admitted', 'Running') AND coalesce(u.amount, 0) <> coalesce(r.amount, 0))
                   OR (w.state NOT IN ('Admitted', 'Running') AND u.amount IS NOT NULL)""")
                .query(String.class).list());
        violations.addAll(jdbc.sql("""
                WITH used AS (SELECT cluster_queue, flavor, resource, sum(amount) AS amount FROM workload_usage
                              GROUP BY 1, 2, 3)
                SELECT 'over quota: ClusterQueue ' || q.cluster_queue || ' uses ' || u.amount || ' ' || q.resource
                       || ', nominal ' || q.nominal_quota || ', borrowing limit ' || coalesce(q.borrowing_limit::text, 'none')
                FROM cluster_queue_quota q JOIN cluster_queue c ON c.name = q.cluster_queue
                JOIN used u ON u.cluster_queue = q.cluster_queue AND u.flavor = q.flavor AND u.resource = q.resource
                WHERE u.amount > q.nominal_quota + CASE WHEN c.cohort IS NULL THEN 0
                                                        ELSE coalesce(q.borrowing_limit, u.amount) END""")
                .query(String.class).list());
        violations.addAll(jdbc.sql("""
                WITH used AS (SELECT cluster_queue, flavor, resource, sum(amount) AS amount FROM workload_usage
                              GROUP BY 1, 2, 3)
                SELECT 'over quota: cohort ' || c.cohort || ' uses ' || sum(coalesce(u.amount, 0)) || ' ' || q.resource
                       || ' of ' || sum(q.nominal_quota)
                FROM cluster_queue c JOIN cluster_queue_quota q ON q.cluster_queue = c.name
                LEFT JOIN used u ON u.cluster_queue = q.cluster_queue AND u.flavor = q.flavor AND u.resource = q.resource
                WHERE c.cohort IS NOT NULL GROUP BY c.cohort, q.flavor, q.resource
                HAVING sum(coalesce(u.amount, 0)) > sum(q.nominal_quota)""").query(String.class).list());
        return violations;
    }

    /** Every preemption in the audit has its victim evicted, in the same decision. */
    List<String> preemptionsWithoutEviction() {
        return jdbc.sql("""
                SELECT 'preemption without eviction: ' || p.reason || ' of ' || p.victim_namespace || '/' || p.victim_name
                       || ' (audit ' || p.id || ')'
                FROM preemption_event p
                WHERE NOT EXISTS (SELECT 1 FROM workload_event e WHERE e.workload_uid = p.victim_uid
                                  AND e.type = 'Evicted' AND e.status = 'True' AND e.at >= p.at - interval '1 second')""")
                .query(String.class).list();
    }

    /**
     * A decision's command is issued once: no more STARTs of a workload than its admissions, no more RESTARTs
     * (other than ones the agent refused, which are issued again) than hotswaps it was disrupted by.
     */
    List<String> commandsIssuedTwice() {
        return jdbc.sql("""
                SELECT 'command issued twice: ' || c.type || ' of ' || w.namespace || '/' || w.name || ' ' || count(*)
                       || ' times, for ' || CASE c.type
                           WHEN 'START' THEN (SELECT count(*) FROM workload_event e WHERE e.workload_uid = w.uid
                                              AND e.type = 'Admitted' AND e.status = 'True') || ' admission(s)'
                           ELSE (SELECT count(*) FROM hotswap_event h WHERE h.disrupted_uid = w.uid) || ' hotswap(s)' END
                FROM agent_command c JOIN workload w ON w.uid = c.workload_uid
                WHERE c.type = 'START' OR (c.type = 'RESTART' AND c.state <> 'Refused')
                GROUP BY c.type, w.uid, w.namespace, w.name
                HAVING count(*) > CASE c.type
                    WHEN 'START' THEN (SELECT count(*) FROM workload_event e WHERE e.workload_uid = w.uid
                                       AND e.type = 'Admitted' AND e.status = 'True')
                    ELSE (SELECT count(*) FROM hotswap_event h WHERE h.disrupted_uid = w.uid) END""")
                .query(String.class).list();
    }

    /**
     * No command carried out twice: an agent process carries out each command once, and no agent process
     * carries out a command whose result the scheduler already had (a new process gets the commands left without
     * a result, its simulated cluster starting empty).
     */
    List<String> commandsExecutedTwice(List<Path> agentLogs) {
        Map<Long, Instant> acknowledgedAt = new HashMap<>();
        jdbc.sql("SELECT seq, acked_at FROM agent_command WHERE acked_at IS NOT NULL")
                .query((rs, i) -> acknowledgedAt.put(rs.getLong(1), rs.getTimestamp(2).toInstant())).list();
        List<String> violations = new ArrayList<>();
        for (Path log : agentLogs) {
            Set<Long> executed = new HashSet<>();
            for (String line : lines(log)) {
                Matcher m = EXECUTED.matcher(line);
                if (!m.find()) {
                    continue;
                }
                long id = Long.parseLong(m.group(2));
                if (!executed.add(id)) {
                    violations.add("command executed twice: " + m.group(3) + " " + id + " by one agent (" + log.getFileName()
                            + ")");
                }
                Instant at = timestamp(m.group(1));
                if (at == null) {
                    violations.add("cannot check: no timestamp on the agent's line " + line);
                    continue;
                }
                Instant acked = acknowledgedAt.get(id);
                if (acked != null && at.isAfter(acked.plus(LOG_CLOCK_MARGIN))) {
                    violations.add("command executed twice: " + m.group(3) + " " + id + " carried out at " + at + " by "
                            + log.getFileName() + ", its result stored at " + acked);
                }
            }
        }
        return violations;
    }

    /** How many command executions the agents' logs hold: the check above reads something. */
    int executionsLogged(List<Path> agentLogs) {
        return (int) agentLogs.stream().flatMap(log -> lines(log).stream())
                .filter(line -> EXECUTED.matcher(line).find()).count();
    }

    /**
     * No workload runs in the cluster without an admission: every JobSet of the platform belongs to a workload
     * admitted at some time; one whose workload is not admitted now (evicted, cancelled, finished) stops within
     * the bound.
     */
    List<String> jobSetsWithoutAdmission() {
        List<String> violations = new ArrayList<>();
        Set<String> everAdmitted = new HashSet<>(jdbc.sql("""
                SELECT DISTINCT workload_uid::text FROM workload_event WHERE type = 'Admitted' AND status = 'True'""")
                .query(String.class).list());
        List<JsonNode> jobSets = jobSets();
        for (JsonNode jobSet : jobSets) {
            String uid = workloadUid(jobSet);
            if (uid == null || !everAdmitted.contains(uid)) {
                violations.add("JobSet never admitted: " + key(jobSet) + " of workload " + uid);
            }
        }
        Set<String> unadmittedRunning = runningWithoutAdmission();
        try {
            await().atMost(bound).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                    .until(() -> intersection(unadmittedRunning, runningWithoutAdmission()).isEmpty());
        } catch (ConditionTimeoutException e) {
            intersection(unadmittedRunning, runningWithoutAdmission()).forEach(uid -> violations.add(
                    "runs without an admission for more than " + bound.toSeconds() + " s: workload " + uid));
        }
        return violations;
    }

    /**
     * Every admitted workload's JobSet exists, not suspended, within the bound (or the workload is not admitted any
     * more); its pods may have failed with their pool, which the hotswap handles.
     */
    List<String> admittedWithoutJobSet() {
        Set<String> missing = admittedWithoutRunningJobSet();
        try {
            await().atMost(bound).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                    .until(() -> intersection(missing, admittedWithoutRunningJobSet()).isEmpty());
            return List.of();
        } catch (ConditionTimeoutException e) {
            return intersection(missing, admittedWithoutRunningJobSet()).stream().map(admission ->
                    "admitted without its JobSet for more than " + bound.toSeconds() + " s: " + admission).toList();
        }
    }

    private Set<String> runningWithoutAdmission() {
        Set<String> admitted = new HashSet<>(jdbc.sql(
                "SELECT uid::text FROM workload WHERE state IN ('Admitted', 'Running')").query(String.class).list());
        Set<String> running = new HashSet<>();
        for (JsonNode jobSet : jobSets()) {
            String uid = workloadUid(jobSet);
            if (isRunning(jobSet) && uid != null && !admitted.contains(uid)) {
                running.add(uid);
            }
        }
        return running;
    }

    /** Each as "namespace/name admitted at t", so a later admission of the same workload is another one. */
    private Set<String> admittedWithoutRunningJobSet() {
        Set<String> present = new HashSet<>();
        for (JsonNode jobSet : jobSets()) {
            if (!jobSet.path("suspended").asBoolean()) {
                present.add(workloadUid(jobSet));
            }
        }
        Set<String> missing = new HashSet<>();
        jdbc.sql("SELECT uid::text, namespace || '/' || name, admitted_at FROM workload WHERE state IN ('Admitted', 'Running')")
                .query((rs, i) -> {
                    if (!present.contains(rs.getString(1))) {
                        Timestamp admittedAt = rs.getTimestamp(3);
                        missing.add(rs.getString(2) + " admitted at " + (admittedAt == null ? null : admittedAt.toInstant()));
                    }
                    return null;
                }).list();
        return missing;
    }

    private static String workloadUid(JsonNode jobSet) {
        JsonNode uid = jobSet.path("workloadUid");
        return uid.isString() ? uid.asString() : null;
    }

    private static boolean isRunning(JsonNode jobSet) {
        return !jobSet.path("suspended").asBoolean() && jobSet.path("activePods").asInt() > 0;
    }

    private List<JsonNode> jobSets() {
        PlatformClient.Response response = agent.get().get("/simulation/jobsets");
        if (response.status() != 200) {
            throw new IllegalStateException("the agent answered " + response.status() + " " + response.body());
        }
        return response.json().valueStream().toList();
    }

    private static String key(JsonNode jobSet) {
        return jobSet.path("namespace").asString() + "/" + jobSet.path("name").asString();
    }

    private static Set<String> intersection(Set<String> a, Set<String> b) {
        Set<String> both = new HashSet<>(a);
        both.retainAll(b);
        return both;
    }

    private static List<String> lines(Path log) {
        try {
            return Files.exists(log) ? Files.readAllLines(log) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Instant timestamp(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException notATimestamp) {
            return null;
        }
    }
}
