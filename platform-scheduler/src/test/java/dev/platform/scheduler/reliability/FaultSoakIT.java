package dev.platform.scheduler.reliability;

import dev.platform.scheduler.database.EmbeddedPostgresServer;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformProcess;
import dev.platform.scheduler.testsupport.TestDatabase;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A randomized fault soak: two schedulers (leader and follower) on a PostgreSQL server of the test's own, the
 * simulated agent reaching them through a relay (a Service in front of the replicas), under the load of
 * {@link SoakLoad}: 16 clients submitting together at the start of each of the load's rounds, so the submission
 * writers commit in groups. At moments drawn from the seed, each a few milliseconds into a round so that it meets a
 * group commit in flight, it SIGKILLs the leader, the follower, the agent or the PostgreSQL server (each started
 * again at once, PostgreSQL after a supervisor's delay), pauses one of the three processes with SIGSTOP for a few
 * seconds, cuts the agent off, or ends every database session. After each fault
 * it measures the time to the next admission, waits until every process is back, and checks the invariants of
 * {@link SoakInvariants}; once more at the end, the load stopped. It reports the faults by kind, the recovery
 * times and the violations, and fails on any violation or any acknowledged submission lost.
 *
 * <p>{@code -Dplatform.soak.faults=<n>} sets the number of faults (the {@code fault-soak} profile: 100),
 * {@code -Dplatform.soak.seed=<n>} replays a run's schedule (every run logs its seed). The seed fixes the
 * faults, their moments and the load's choices; the processes' own timing it does not.
 */
class FaultSoakIT {

    private static final int FAULTS = Integer.getInteger("platform.soak.faults", 3);
    private static final long SEED = Long.getLong("platform.soak.seed", new Random().nextLong());
    private static final Duration PATIENCE = Duration.ofMinutes(5);
    /**
     * How long a process may take to start and be heard: more than the patience for an admission, since three JVMs
     * starting together on a machine busy with other builds (load average 20 and more on two cores) have taken over
     * five minutes; a process that never comes up still fails the soak.
     */
    private static final Duration START_PATIENCE = Duration.ofMinutes(10);
    /** How long the cluster may lag behind a decision: a FULL report (15 s here), the 5 s grace, some cycles. */
    private static final Duration CLUSTER_BOUND = Duration.ofSeconds(90);
    private static final List<String> AGENT_SETTINGS = List.of("--platform.agent.full-report-interval=15s");
    private static final Map<String, String> POSTGRES_SETTINGS = Map.of("fsync", "off", "full_page_writes", "off",
            "timezone", "UTC");
    /** How far into a round of the load a fault lands at most: the round's submissions are being written then. */
    private static final int INTO_ROUND_MILLIS = 60;

    enum Fault {
        KILL_LEADER, KILL_FOLLOWER, KILL_AGENT, KILL_POSTGRES, PAUSE_LEADER, PAUSE_FOLLOWER, PAUSE_AGENT, CUT_AGENT,
        CUT_SESSIONS
    }

    /** Kept when the test fails: every process's log is there. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    private final Random random = new Random(SEED);
    private final PlatformProcess[] schedulers = new PlatformProcess[2];
    private final int[] schedulerStarts = new int[2];
    private final List<Path> agentLogs = new ArrayList<>();
    private PlatformProcess agent;
    private EmbeddedPostgresServer postgres;
    private int postgresPort;
    private Partition relay;
    private JdbcClient jdbc;
    private List<String> schedulerArguments;

    @Test
    void underRandomFaultsNothingAcknowledgedIsLostAndEveryInvariantHolds() throws Exception {
        System.out.printf("fault soak seed %d faults %d (replay with -Dplatform.soak.seed=%d)%n", SEED, FAULTS, SEED);
        postgresPort = freePort();
        postgres = EmbeddedPostgresServer.start(workDir.resolve("postgres"), postgresPort, POSTGRES_SETTINGS);
        String url = postgres.jdbcUrl("postgres");
        jdbc = JdbcClient.create(new DriverManagerDataSource(url, postgres.superuser().user(),
                postgres.superuser().password()));
        schedulerArguments = PlatformProcess.database(new TestDatabase.Connection(url, postgres.application().user(),
                postgres.application().password()));
        Map<Fault, List<Duration>> recoveries = new EnumMap<>(Fault.class);
        List<Integer> inFlightAtFaults = new ArrayList<>();
        List<String> violations = new ArrayList<>();
        SoakInvariants invariants = new SoakInvariants(jdbc, () -> agent.client(), CLUSTER_BOUND);
        SoakLoad load = null;
        Instant began = Instant.now();
        try {
            startScheduler(0);
            startScheduler(1);
            relay = new Partition(() -> Stream.of(schedulers).map(PlatformProcess::port).toList());
            startAgent();
            awaitUp();
            for (String document : SoakLoad.configuration()) {
                PlatformClient.Response applied = schedulers[0].client().postYaml("/api/v1/manifests", document);
                assertThat(applied.status()).as(applied.body()).isEqualTo(200);
            }
            load = new SoakLoad(() -> Stream.of(schedulers).map(PlatformProcess::client).toList(), () -> agent.client(),
                    jdbc, SEED);
            load.start();
            awaitAdmissionAfter(began);
            System.out.printf("fault soak: up and admitting after %s%n", seconds(Duration.between(began, Instant.now())));

            for (int i = 0; i < FAULTS; i++) {
                pace(Duration.ofSeconds(1 + random.nextInt(5)));
                Fault fault = Fault.values()[random.nextInt(Fault.values().length)];
                paceUntil(load.nextRound().plusMillis(random.nextInt(INTO_ROUND_MILLIS)));
                Instant at = Instant.now();
                int inFlight = load.inFlight();
                inFlightAtFaults.add(inFlight);
                inject(fault);
                Optional<Duration> recovery = awaitAdmissionAfter(at);
                recovery.ifPresentOrElse(r -> recoveries.computeIfAbsent(fault, f -> new ArrayList<>()).add(r),
                        () -> violations.add("no admission within " + PATIENCE.toMinutes() + " min of " + fault));
                awaitUp();
                List<String> found = invariants.check(load::ledger, agentLogs);
                violations.addAll(found);
                System.out.printf("fault %d/%d %s at %s (%d requests of the load in flight): next admission after %s,"
                                + " %d violation(s) %s%n", i + 1, FAULTS, fault, seconds(Duration.between(began, at)),
                        inFlight, recovery.map(FaultSoakIT::seconds).orElse("none"), found.size(), found);
            }
            load.close();
            awaitUp();
            violations.addAll(invariants.check(load::ledger, agentLogs));
            Map<Integer, Long> groups = submissionGroups();
            Map<String, Object> report = report(recoveries, violations, load, invariants, began);
            report.put("inFlightAtFaults", inFlightAtFaults);
            report.put("submissionGroupsBySize", groups);
            System.out.println("fault soak: " + JsonMapper.builder().build().writeValueAsString(report));
            Files.writeString(Path.of("target", "fault-soak.json"),
                    JsonMapper.builder().build().writerWithDefaultPrettyPrinter().writeValueAsString(report));

            assertThat(load.ledger().submissions()).as("submissions acknowledged during the soak").isNotEmpty();
            assertThat(load.counts()).as("names applied again after their deletion").containsKey("reapplied");
            assertThat(groups.keySet().stream().mapToInt(Integer::intValue).max().orElse(0))
                    .as("the largest group of submissions committed together").isGreaterThanOrEqualTo(3);
            assertThat(recoveries.values().stream().mapToInt(List::size).sum()).as("faults recovered from")
                    .isEqualTo(FAULTS);
            assertThat(invariants.executionsLogged(agentLogs)).as("commands the agents logged carrying out").isPositive();
            assertThat(invariants.lost(load::ledger)).as("acknowledged submissions lost").isEmpty();
            assertThat(violations).as("violations (seed %d; logs in %s)", SEED, workDir).isEmpty();
            assertThat(load.wrongAnswers()).as("answers other than 2xx, 503 with Retry-After or 429").isEmpty();
        } finally {
            if (load != null) {
                load.close();
            }
            stopEverything();
        }
    }

    private void inject(Fault fault) throws Exception {
        switch (fault) {
            case KILL_LEADER, KILL_FOLLOWER -> {
                int leader = leaderSlot();
                int slot = fault == Fault.KILL_LEADER ? leader : 1 - leader;
                schedulers[slot].kill();
                startScheduler(slot);
            }
            case KILL_AGENT -> {
                agent.kill();
                startAgent();
            }
            case KILL_POSTGRES -> {
                killPostgres();
                pace(Duration.ofSeconds(1 + random.nextInt(5)));
                postgres = EmbeddedPostgresServer.start(workDir.resolve("postgres"), postgresPort, POSTGRES_SETTINGS);
            }
            case PAUSE_LEADER, PAUSE_FOLLOWER, PAUSE_AGENT -> {
                int leader = leaderSlot();
                PlatformProcess paused = fault == Fault.PAUSE_AGENT ? agent
                        : schedulers[fault == Fault.PAUSE_LEADER ? leader : 1 - leader];
                paused.pause();
                try {
                    pace(Duration.ofSeconds(2 + random.nextInt(14)));
                } finally {
                    paused.resume();
                }
            }
            case CUT_AGENT -> {
                relay.cut();
                try {
                    pace(Duration.ofSeconds(2 + random.nextInt(19)));
                } finally {
                    relay.heal();
                }
            }
            case CUT_SESSIONS -> jdbc.sql("""
                    SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                    WHERE datname = current_database() AND pid <> pg_backend_pid()""").query(Long.class).single();
        }
    }

    /** The slot of the scheduler holding the leadership; 0 when none does (the fault then hits slot 0 or 1 as asked). */
    private int leaderSlot() {
        try {
            String holder = jdbc.sql("SELECT holder FROM scheduler_leader").query(String.class).optional().orElse("");
            return holder.startsWith(schedulers[1].pid() + "@") ? 1 : 0;
        } catch (RuntimeException databaseAway) {
            return 0;
        }
    }

    /**
     * SIGKILL of the postmaster, as the OOM killer would; its backends notice and exit, then the data directory's
     * server object is closed (its fast shutdown finds nothing to stop) before a new one starts on it.
     */
    private void killPostgres() throws IOException {
        long pid = Long.parseLong(Files.readAllLines(workDir.resolve("postgres/pgdata/postmaster.pid")).get(0).strip());
        ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow();
        List<ProcessHandle> backends = postmaster.descendants().toList();
        postmaster.destroyForcibly();
        await().atMost(Duration.ofSeconds(60)).until(() -> !postmaster.isAlive()
                && backends.stream().noneMatch(ProcessHandle::isAlive));
        postgres.close();
    }

    private void startScheduler(int slot) throws IOException {
        schedulers[slot] = PlatformProcess.start(workDir, "scheduler-" + (char) ('a' + slot) + "-" + ++schedulerStarts[slot],
                schedulerArguments);
    }

    private void startAgent() throws IOException {
        String name = "agent-" + (agentLogs.size() + 1);
        agent = PlatformProcess.startSimulatedAgent(workDir, name, "http://127.0.0.1:" + relay.port(), "sim",
                AGENT_SETTINGS);
        agentLogs.add(workDir.resolve(name + ".log"));
    }

    /** Every process serves again, and the scheduler hears the agent (its five pools, the cluster not stale). */
    private void awaitUp() {
        for (PlatformProcess scheduler : schedulers) {
            scheduler.awaitUp(START_PATIENCE);
        }
        if (agent != null) {
            agent.awaitUp(START_PATIENCE);
            await().atMost(START_PATIENCE).ignoreExceptions().until(() -> {
                PlatformClient.Response cluster = schedulers[0].client().get("/api/v1/clusters/sim");
                return cluster.status() == 200 && !cluster.json().get("stale").asBoolean();
            });
        }
    }

    /** The time from {@code after} to the first admission committed after it, if one comes within the patience. */
    private Optional<Duration> awaitAdmissionAfter(Instant after) {
        try {
            Timestamp first = await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                    .until(() -> jdbc.sql("""
                            SELECT min(at) FROM workload_event WHERE type = 'Admitted' AND status = 'True' AND at > ?""")
                            .param(after.atOffset(ZoneOffset.UTC)).query(Timestamp.class).single(), t -> t != null);
            return Optional.of(Duration.between(after, first.toInstant()));
        } catch (ConditionTimeoutException e) {
            return Optional.empty();
        }
    }

    private Map<String, Object> report(Map<Fault, List<Duration>> recoveries, List<String> violations, SoakLoad load,
                                       SoakInvariants invariants, Instant began) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("seed", SEED);
        report.put("faults", FAULTS);
        Map<String, Object> byKind = new LinkedHashMap<>();
        List<Duration> all = new ArrayList<>();
        recoveries.forEach((fault, times) -> {
            all.addAll(times);
            byKind.put(fault.name(), Map.of("count", times.size(), "recoveryP50Seconds", percentile(times, 50),
                    "recoveryP99Seconds", percentile(times, 99)));
        });
        report.put("faultsByKind", byKind);
        report.put("recoveryP50Seconds", percentile(all, 50));
        report.put("recoveryP99Seconds", percentile(all, 99));
        report.put("violations", violations.size());
        report.put("violationList", violations);
        report.put("acknowledged", load.ledger().submissions().size());
        report.put("acknowledgedLost", invariants.lost(load::ledger).size());
        report.put("load", load.counts());
        report.put("executionsInAgentLogs", invariants.executionsLogged(agentLogs));
        report.put("admissions", jdbc.sql("SELECT count(*) FROM workload_event WHERE type = 'Admitted' AND status = 'True'")
                .query(Long.class).single());
        report.put("preemptions", jdbc.sql("SELECT reason, count(*) FROM preemption_event GROUP BY 1 ORDER BY 1")
                .query((rs, i) -> rs.getString(1) + " " + rs.getLong(2)).list());
        report.put("hotswaps", jdbc.sql("SELECT outcome, count(*) FROM hotswap_event GROUP BY 1 ORDER BY 1")
                .query((rs, i) -> rs.getString(1) + " " + rs.getLong(2)).list());
        report.put("commands", jdbc.sql("SELECT type || ' ' || state, count(*) FROM agent_command GROUP BY 1 ORDER BY 1")
                .query((rs, i) -> rs.getString(1) + " " + rs.getLong(2)).list());
        report.put("durationSeconds", Duration.between(began, Instant.now()).toSeconds());
        return report;
    }

    /**
     * How many transactions committed how many submissions together: a submission's first timeline entry is written
     * by its transaction and never updated, so the entries' transaction ids group the submissions as committed.
     */
    private Map<Integer, Long> submissionGroups() {
        Map<Integer, Long> groups = new TreeMap<>();
        jdbc.sql("""
                SELECT size, count(*) FROM (
                    SELECT xid, count(*) AS size FROM (
                        SELECT DISTINCT ON (workload_uid) xmin::text AS xid FROM workload_event ORDER BY workload_uid, id
                    ) first_entries GROUP BY xid
                ) sized GROUP BY size ORDER BY size""")
                .query((rs, i) -> groups.put(rs.getInt(1), rs.getLong(2))).list();
        return groups;
    }

    /** Nearest rank, in seconds to the millisecond; null without samples. */
    private static Double percentile(List<Duration> samples, int percentile) {
        if (samples.isEmpty()) {
            return null;
        }
        List<Duration> sorted = samples.stream().sorted().toList();
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1)).toMillis() / 1000.0;
    }

    private static String seconds(Duration duration) {
        return duration.toMillis() / 1000.0 + " s";
    }

    /** The fault schedule's pacing (a fault's length, a supervisor's delay): nothing is asserted on it. */
    private static void pace(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }

    private static void paceUntil(Instant moment) throws InterruptedException {
        Duration left = Duration.between(Instant.now(), moment);
        if (!left.isNegative()) {
            pace(left);
        }
    }

    private void stopEverything() throws Exception {
        if (agent != null) {
            agent.close();
        }
        for (PlatformProcess scheduler : schedulers) {
            if (scheduler != null) {
                scheduler.close();
            }
        }
        if (relay != null) {
            relay.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
