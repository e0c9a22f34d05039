package dev.platform.scheduler.performance;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The end-to-end benchmarks at full size, each on a scheduler process of its own (the packaged jar, on a database
 * of its own on one durable PostgreSQL server): Kueue's {@code baseline} and {@code large-scale} shapes, REST
 * submissions with pgbench on the same server, the agent's command round trip, durable admissions from a deep backlog, start-up and heap with
 * 100,000 pending and 50,000 admitted workloads, and the Kubernetes API (list as Tables, watch, kubectl apply). Then publishes every section of this build into
 * docs/performance/results.json and docs/performance.md. A benchmark: it asserts only that what it measured
 * happened (every workload finished, every submission was accepted), never how fast.
 *
 * <p>Run it with {@value #COMMAND} (the profile also runs the hotswap, console and core benchmarks first).
 * {@code -Dplatform.performance.phases=baseline,rest} picks phases; {@code -Dplatform.performance.publish=false}
 * keeps the docs as they are; {@code -Dplatform.performance.jfr=true} records a JFR profile of each scheduler
 * into target/performance-work/<phase>/; {@code -Dplatform.performance.statements=true} writes PostgreSQL's
 * statement statistics of the admission and start-up phases there ({@link StatementStatistics});
 * {@code -Dplatform.performance.watchers=100} sets the full-size watch's watchers;
 * {@code -Dplatform.performance.size=small} runs every phase at a tenth
 * of its size or less, to try the benchmarks out; {@code -Dplatform.performance.reduced=baseline,large-scale,rest}
 * runs the named phases so (baseline: every ClusterQueue, a tenth of the workloads; large-scale: a tenth of the
 * ClusterQueues; rest: a tenth of the submissions; agent: 1,000 workloads of 10,000; kubernetes: see
 * {@link #kubernetes}). A published section names its size.
 * At full size the REST phase's clients are {@link Wrk} when {@code wrk} is on the PATH (a minute of warm-up, then
 * 30 s per variant), else Java's HTTP client; {@code rest.loadGenerator} in the results says which.
 */
class EndToEndBenchmark {

    static final String COMMAND = "./mvnw -B -ntp -pl platform-scheduler -am clean verify -Pperformance";
    private static final Path WORK = Path.of("target", "performance-work");
    private static final int CLIENTS = Integer.getInteger("platform.performance.clients", 16);
    /** The full-size watch's watchers: fewer leave the benchmark's own clients less of the two cores. */
    private static final int WATCHERS = Integer.getInteger("platform.performance.watchers", 100);
    private static final boolean SMALL = "small".equals(System.getProperty("platform.performance.size"));
    private static final Set<String> REDUCED = Set.of(System.getProperty("platform.performance.reduced", "").split(","));

    @Test
    void everyEndToEndBenchmark() {
        Set<String> phases = Set.of(System.getProperty("platform.performance.phases",
                "baseline,large-scale,rest,agent,admission,startup,kubernetes").split(","));
        try (BenchmarkPostgres postgres = new BenchmarkPostgres(WORK.resolve("pgdata"))) {
            if (phases.contains("baseline")) {
                try (SchedulerProcessHost host = host(postgres, "baseline")) {
                    record("baseline", host, KueueShapeRun.run(host,
                            reduced("baseline") ? KueueShape.baseline().scaledDown(5, 6, 10) : KueueShape.baseline(),
                            CLIENTS,
                            Duration.ofMinutes(30)));
                }
            }
            if (phases.contains("large-scale")) {
                try (SchedulerProcessHost host = host(postgres, "large_scale")) {
                    record("largeScale", host, KueueShapeRun.run(host,
                            reduced("large-scale") ? KueueShape.largeScale().scaledDown(10, 10, 1)
                                    : KueueShape.largeScale(), CLIENTS,
                            Duration.ofMinutes(60)));
                }
            }
            if (phases.contains("rest")) {
                try (SchedulerProcessHost host = host(postgres, "rest")) {
                    record("rest", host, !reduced("rest") && Wrk.available()
                            ? RestSubmissionRun.runWithWrk(host, CLIENTS, Duration.ofSeconds(60),
                            Duration.ofSeconds(30), WORK.resolve("wrk"))
                            : RestSubmissionRun.run(host, CLIENTS, reduced("rest") ? 100 : 1_000,
                            reduced("rest") ? 200 : 2_000));
                }
                pgbench(postgres.server(), CLIENTS, 10, Duration.ofSeconds(SMALL ? 5 : 30))
                        .ifPresent(figures -> PerformanceResults.record("pgbench", figures));
            }
            if (phases.contains("agent")) {
                try (SchedulerProcessHost host = host(postgres, "agent")) {
                    record("agent", host, AgentCommandRun.run(host, reduced("agent") ? 1_000 : 10_000));
                }
            }
            if (phases.contains("admission")) {
                try (SchedulerProcessHost host = host(postgres, "admission")) {
                    record("admission", host, AdmissionThroughputRun.run(host, 100,
                            reduced("admission") ? 5_000 : 50_000));
                }
            }
            if (phases.contains("startup")) {
                try (SchedulerProcessHost host = host(postgres, "startup")) {
                    record("heap", host, StartupRun.run(host, reduced("startup") ? 10 : 100, 10, 50, 100));
                }
            }
            if (phases.contains("kubernetes")) {
                try (SchedulerProcessHost host = host(postgres, "kubernetes")) {
                    kubernetes(host, reduced("kubernetes"), WORK.resolve("kubernetes"));
                }
            }
        }
        if (PerformanceResults.PUBLISHING) {
            PerformanceResults.publish(PerformanceResults.repository(), command());
        }
    }

    /**
     * The Kubernetes API's three benchmarks on one scheduler: 100,000 workloads (1,000 ClusterQueues of 30 admitted
     * and 70 waiting) listed as kubectl's Tables of 500; 100 watchers while 1,000 changes a second are committed for
     * 60 s; {@code kubectl apply -f} of 1,000 JobSets beside {@code POST /api/v1/manifests}. Reduced: 10,000
     * workloads, 10 watchers of 100 changes a second for 20 s, 100 JobSets.
     */
    static void kubernetes(SchedulerHost host, boolean reduced, Path workDir) {
        KubernetesApiRun.seed(host, reduced ? 100 : 1_000, 30, 70);
        record("kubernetesList", host, KubernetesApiRun.list(host, 500, reduced ? 2 : 1));
        record("kubernetesWatch", host, reduced
                ? KubernetesApiRun.watch(host, 10, 100, 20, Duration.ofSeconds(20), 1_000)
                : KubernetesApiRun.watch(host, WATCHERS, 1_000, 100, Duration.ofSeconds(60), 10_000));
        record("kubernetesApply", host, KubernetesApiRun.apply(host, reduced ? 100 : 1_000, workDir));
    }

    /** The command as it was given: the profile's, with the options of this run. */
    static String command() {
        StringBuilder command = new StringBuilder(COMMAND);
        for (String option : List.of("phases", "reduced", "size", "clients", "jfr", "statements")) {
            String value = System.getProperty("platform.performance." + option);
            if (value != null) {
                command.append(" -Dplatform.performance.").append(option).append('=').append(value);
            }
        }
        return command.toString();
    }

    /** Whether {@code phase} runs at its reduced size: {@code size=small}, or named in {@code reduced}. */
    private static boolean reduced(String phase) {
        return SMALL || REDUCED.contains(phase);
    }

    private static SchedulerProcessHost host(BenchmarkPostgres postgres, String phase) {
        return new SchedulerProcessHost(postgres, phase, WORK.resolve(phase), List.of());
    }

    private static void record(String section, SchedulerHost host, Map<String, Object> figures) {
        Map<String, Object> withHost = new LinkedHashMap<>(figures);
        withHost.put("host", host.description());
        PerformanceResults.record(section, withHost);
    }

    /**
     * pgbench simple-update on the same server with {@code clients} connections (the REST benchmark's), and with
     * one (the scheduling loop's single writer), recorded as section {@code pgbench}; skipped, and said so, without
     * a pgbench binary.
     */
    static Optional<Map<String, Object>> pgbench(SchedulerHost.PostgresServer server, int clients, int scale,
                                                 Duration duration) {
        Optional<Path> pgbench = Pgbench.executable();
        if (pgbench.isEmpty()) {
            System.out.println("pgbench not found on the PATH (Debian: apt-get install postgresql-client): the pgbench"
                    + " comparison is skipped");
            return Optional.empty();
        }
        LoadAverage load = LoadAverage.start();
        Pgbench.initialise(pgbench.get(), server, scale);
        Pgbench.Result concurrent = Pgbench.simpleUpdate(pgbench.get(), server, clients, duration);
        Pgbench.Result single = Pgbench.simpleUpdate(pgbench.get(), server, 1, duration);
        assertThat(concurrent.tps()).isPositive();
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("tps", concurrent.tps());
        figures.put("clients", clients);
        figures.put("latencyAverageMillis", concurrent.latencyAverageMillis());
        figures.put("singleClientTps", single.tps());
        figures.put("command", concurrent.command() + " (after pgbench -i -s " + scale + ")");
        figures.put("loadAverage", load.end());
        figures.put("host", server.version());
        return Optional.of(figures);
    }
}
