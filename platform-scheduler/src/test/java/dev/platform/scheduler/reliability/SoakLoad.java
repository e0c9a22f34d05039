package dev.platform.scheduler.reliability;

import dev.platform.scheduler.performance.KueueShape;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The soak's load, Kueue's baseline in shape and smaller: two cohorts of two ClusterQueues (20 cpu nominal,
 * borrowing up to 100, reclaim within the cohort, preemption of lower priorities within the queue) fed with the
 * baseline's three classes (small, medium, large: 1, 5 and 20 cpu at priorities 50, 100 and 200) as one-pod
 * JobSets that run a few seconds on the simulated cluster; beside them the seed's two TPU JobSets (2 slices of
 * the four) so a failing pool has something to hotswap. Closed loop: a submission is made whenever fewer than
 * {@value #OUTSTANDING} CPU workloads (2 TPU ones) are unfinished, so the queues always hold pending work and
 * an admission follows any recovery. Some ticks cancel a workload, change one's priority, or fail a TPU pool
 * (recovered 20 s later). Every submission carries an {@code Idempotency-Key} and is retried with it, on either
 * scheduler, until answered 2xx: then it is acknowledged, with the uid answered. All choices come from the seed;
 * what the threads interleave with does not.
 */
final class SoakLoad implements AutoCloseable {

    static final String TPU_NAMESPACE = "default";
    private static final int OUTSTANDING = 24;
    private static final int TPU_OUTSTANDING = 2;
    private static final Duration TICK = Duration.ofMillis(250);
    private static final Duration POOL_DOWN = Duration.ofSeconds(20);
    private static final Duration GIVE_UP = Duration.ofMinutes(3);
    private static final String SEED = "seed-kueue-and-hotswap.yaml";
    private static final List<String> TPU_POOLS = List.of("sim-v6e-4x4-0", "sim-v6e-4x4-1", "sim-v6e-4x4-2",
            "sim-v6e-4x4-3");

    /** The shape: runtimes are seconds, not Kueue's milliseconds, so faults find JobSets running. */
    static final KueueShape SHAPE = new KueueShape("soak", 2, 2, 20, 100, List.of(
            new KueueShape.WorkloadClass("small", 0, Duration.ZERO, Duration.ofSeconds(2), 50, 1),
            new KueueShape.WorkloadClass("medium", 0, Duration.ZERO, Duration.ofSeconds(4), 100, 5),
            new KueueShape.WorkloadClass("large", 0, Duration.ZERO, Duration.ofSeconds(8), 200, 20)));

    /** A submission answered 2xx: the uid it was answered with. */
    record Acknowledged(String namespace, String name, String uid) {
    }

    private final Supplier<List<PlatformClient>> schedulers;
    private final Supplier<PlatformClient> agent;
    private final JdbcClient jdbc;
    private final Random random;
    private final Map<String, Acknowledged> acknowledged = new ConcurrentHashMap<>();
    private final List<Acknowledged> cpuAcknowledged = new ArrayList<>();
    private final ConcurrentLinkedQueue<String> wrongAnswers = new ConcurrentLinkedQueue<>();
    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean stopped;
    private int next;
    private int turn;
    private String failedPool;
    private Instant failedAt;

    SoakLoad(Supplier<List<PlatformClient>> schedulers, Supplier<PlatformClient> agent, JdbcClient jdbc, long seed) {
        this.schedulers = schedulers;
        this.agent = agent;
        this.jdbc = jdbc;
        this.random = new Random(seed);
        this.thread = new Thread(this::run, "soak-load");
        this.thread.setDaemon(true);
    }

    /** The configuration: the shape's flavor, priority classes, queues; the seed's TPU queue, twice its quota. */
    static List<String> configuration() {
        List<String> documents = new ArrayList<>(SHAPE.manifests(100));
        documents.add(String.join("---", SeedManifests.documents(SEED).stream().filter(d -> !d.contains("kind: JobSet"))
                .toList()).replace("nominalQuota: 32", "nominalQuota: 64"));
        return documents;
    }

    void start() {
        thread.start();
    }

    Map<String, Acknowledged> acknowledged() {
        return Map.copyOf(acknowledged);
    }

    /** Answers other than 2xx, a 503 with {@code Retry-After}, 429, or a 404/409 of a cancel or a patch. */
    List<String> wrongAnswers() {
        return List.copyOf(wrongAnswers);
    }

    Map<String, Integer> counts() {
        Map<String, Integer> copy = new TreeMap<>();
        counts.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }

    private void run() {
        while (!stopped) {
            try {
                tick();
            } catch (RuntimeException databaseAway) {
                count("tickFailed");
            }
            pause();
        }
    }

    private void tick() {
        Map<String, Long> unfinished = new ConcurrentHashMap<>();
        jdbc.sql("""
                SELECT namespace = ? AS tpu, count(*) FROM workload WHERE state NOT IN ('Finished', 'Failed') GROUP BY 1""")
                .param(TPU_NAMESPACE)
                .query((rs, i) -> unfinished.put(rs.getBoolean(1) ? "tpu" : "cpu", rs.getLong(2))).list();
        if (unfinished.getOrDefault("cpu", 0L) < OUTSTANDING) {
            submitCpu();
        }
        if (unfinished.getOrDefault("tpu", 0L) < TPU_OUTSTANDING) {
            submitTpu();
        }
        int dice = random.nextInt(100);
        if (dice < 4 && !cpuAcknowledged.isEmpty()) {
            change("DELETE", recentCpuWorkload(), null, null, "cancels");
        } else if (dice < 8 && !cpuAcknowledged.isEmpty()) {
            Acknowledged changed = recentCpuWorkload();
            String priorityClass = SHAPE.classes().get(random.nextInt(SHAPE.classes().size())).name();
            change("PATCH", changed, "application/merge-patch+json",
                    "{\"metadata\": {\"labels\": {\"kueue.x-k8s.io/priority-class\": \"" + priorityClass + "\"}}}",
                    "priorityChanges");
        }
        poolFailures(random.nextInt(120) == 0);
    }

    /** One of the last {@value #OUTSTANDING} CPU submissions: most of them have not ended yet. */
    private Acknowledged recentCpuWorkload() {
        int recent = Math.min(OUTSTANDING, cpuAcknowledged.size());
        return cpuAcknowledged.get(cpuAcknowledged.size() - 1 - random.nextInt(recent));
    }

    private void submitCpu() {
        String queue = SHAPE.clusterQueues().get(random.nextInt(SHAPE.clusterQueues().size()));
        KueueShape.WorkloadClass workloadClass = SHAPE.classes().get(random.nextInt(SHAPE.classes().size()));
        String name = workloadClass.name() + "-" + next++;
        String yaml = KueueShape.jobSet(new KueueShape.Arrival(Duration.ZERO, queue, name, workloadClass));
        submit(queue, name, yaml).ifPresent(cpuAcknowledged::add);
    }

    /** The seed's JobSets, renamed, running a minute: high and low priority in turn. */
    private void submitTpu() {
        String template = next % 2 == 0 ? "high-jax-trillium" : "low-jax-trillium";
        String name = template.substring(0, template.indexOf('-')) + "-tpu-" + next++;
        String yaml = SeedManifests.document(SEED, template).replace("name: " + template + "\n", "name: " + name + "\n")
                .replace("  annotations:\n", "  annotations:\n    platform.dev/simulated-runtime: 60s\n");
        submit(TPU_NAMESPACE, name, yaml);
    }

    private Optional<Acknowledged> submit(String namespace, String name, String yaml) {
        count("submissions");
        Instant giveUp = Instant.now().plus(GIVE_UP);
        while (!stopped && Instant.now().isBefore(giveUp)) {
            PlatformClient api = nextScheduler();
            try {
                Response response = api.send("POST", "/api/v1/namespaces/" + namespace + "/workloads",
                        Map.of("Idempotency-Key", name), "application/yaml", yaml);
                if (response.status() / 100 == 2) {
                    Acknowledged ack = new Acknowledged(namespace, name, response.json().get("uid").asString());
                    acknowledged.put(namespace + "/" + name, ack);
                    count("acknowledged");
                    return Optional.of(ack);
                }
                if (!retryable(response)) {
                    wrongAnswers.add("POST " + namespace + "/" + name + ": " + response.status() + " " + response.body());
                    return Optional.empty();
                }
                count("answered" + response.status());
            } catch (RuntimeException timeoutOrRefused) {
                count("connectionFailures");
            }
            pause();
        }
        return Optional.empty();
    }

    private void change(String method, Acknowledged workload, String contentType, String body, String counter) {
        try {
            Response response = nextScheduler().send(method, "/api/v1/namespaces/" + workload.namespace()
                    + "/workloads/" + workload.name(), Map.of(), contentType, body);
            if (response.status() / 100 == 2) {
                count(counter);
            } else if (!retryable(response) && response.status() != 409 && response.status() != 422) {
                // 409: cancelled or finished meanwhile; 422: a change a finished workload does not take
                wrongAnswers.add(method + " " + workload.name() + ": " + response.status() + " " + response.body());
            }
        } catch (RuntimeException timeoutOrRefused) {
            count("connectionFailures");
        }
    }

    private void poolFailures(boolean failOne) {
        try {
            if (failedPool == null && failOne) {
                String pool = TPU_POOLS.get(random.nextInt(TPU_POOLS.size()));
                if (agent.get().post("/simulation/nodepools/" + pool + "/fail", null, "").status() == 204) {
                    failedPool = pool;
                    failedAt = Instant.now();
                    count("poolFailures");
                }
            } else if (failedPool != null && Instant.now().isAfter(failedAt.plus(POOL_DOWN))) {
                agent.get().post("/simulation/nodepools/" + failedPool + "/recover", null, "");
                failedPool = null;
            }
        } catch (RuntimeException agentAway) {
            // a restarted agent's cluster is healthy again
            failedPool = null;
        }
    }

    private static boolean retryable(Response response) {
        return (response.status() == 503 && response.header("Retry-After") != null) || response.status() == 429;
    }

    private PlatformClient nextScheduler() {
        List<PlatformClient> clients = schedulers.get();
        return clients.get(Math.floorMod(turn++, clients.size()));
    }

    private void count(String counter) {
        counts.computeIfAbsent(counter, c -> new AtomicInteger()).incrementAndGet();
    }

    /** Between ticks, and between tries of a refused submission: pacing, no assertion waits on it. */
    private void pause() {
        try {
            Thread.sleep(TICK.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped = true;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.interrupt();
        thread.join(Duration.ofMinutes(1).toMillis());
    }
}
