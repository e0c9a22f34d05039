package dev.platform.scheduler.reliability;

import dev.platform.scheduler.performance.KueueShape;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The soak's load, Kueue's baseline in shape and smaller: two cohorts of two ClusterQueues (20 cpu nominal,
 * borrowing up to 100, reclaim within the cohort, preemption of lower priorities within the queue) fed with the
 * baseline's three classes (small, medium, large: 1, 5 and 20 cpu at priorities 50, 100 and 200) as one-pod
 * JobSets that run a few seconds on the simulated cluster; beside them the seed's two TPU JobSets (2 slices of
 * the four) so a failing pool has something to hotswap.
 *
 * <p>{@value #CLIENTS} clients submit concurrently, as users do, each on a thread of its own:
 * <ul>
 *   <li>one keeps {@value #TPU_OUTSTANDING} TPU JobSets unfinished and fails a TPU pool now and then (recovered
 *   20 s later);</li>
 *   <li>{@value #CPU_CLIENTS} keep {@value #OUTSTANDING_PER_CLIENT} CPU JobSets each unfinished (a closed loop, so
 *   the queues always hold pending work and an admission follows any recovery), and now and then cancel one of
 *   theirs or change its priority class;</li>
 *   <li>the others each own a name, delete the workload holding it and apply the name again: a new workload with a
 *   new uid (a deleted workload frees its name), under a new Idempotency-Key.</li>
 * </ul>
 * Every submission carries an {@code Idempotency-Key} and is retried with it, across faults, on either scheduler,
 * until answered 2xx: then it is acknowledged, with the uid answered; a deletion likewise, until answered 2xx.
 *
 * <p>The clients act together at the start of each {@link #ROUND}, their first tries of a round going to one
 * scheduler (the next round's to the other), so each round's submissions reach one submission writer at once and
 * are committed in groups, and a fault injected just after a round starts ({@link #nextRound}) meets a group
 * commit in flight. The clients' choices come from the seed; what the threads interleave with does not.
 */
final class SoakLoad implements AutoCloseable {

    static final String TPU_NAMESPACE = "default";
    static final int CLIENTS = 16;
    private static final int CPU_CLIENTS = 8;
    private static final int OUTSTANDING_PER_CLIENT = 3;
    private static final int TPU_OUTSTANDING = 2;
    static final Duration ROUND = Duration.ofSeconds(2);
    private static final Duration RETRY_PAUSE = Duration.ofMillis(250);
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

    /** A submission answered 2xx: the key it was sent with and the uid it was answered with. */
    record Acknowledged(String namespace, String name, String key, String uid) {
    }

    /**
     * What the load was told: the submissions acknowledged, the workloads (uids) it asked to delete (whether or not
     * an answer came), and those whose deletion was answered 2xx.
     */
    record Ledger(List<Acknowledged> submissions, Set<String> deletesSent, Set<String> deletesAcknowledged) {
    }

    private enum Role { TPU, CPU, REAPPLY }

    private final Supplier<List<PlatformClient>> schedulers;
    private final Supplier<PlatformClient> agent;
    private final JdbcClient jdbc;
    private final List<Client> clients = new ArrayList<>();
    private final ConcurrentLinkedQueue<Acknowledged> acknowledged = new ConcurrentLinkedQueue<>();
    private final Set<String> deletesSent = ConcurrentHashMap.newKeySet();
    private final Set<String> deletesAcknowledged = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<String> wrongAnswers = new ConcurrentLinkedQueue<>();
    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Instant epoch = Instant.now();
    private volatile boolean stopped;

    /**
     * {@code agent} is the simulated agent's HTTP port, for pool failures; null for a load without them (no
     * cluster).
     */
    SoakLoad(Supplier<List<PlatformClient>> schedulers, Supplier<PlatformClient> agent, JdbcClient jdbc, long seed) {
        this.schedulers = schedulers;
        this.agent = agent;
        this.jdbc = jdbc;
        for (int i = 0; i < CLIENTS; i++) {
            Role role = i == 0 ? Role.TPU : i <= CPU_CLIENTS ? Role.CPU : Role.REAPPLY;
            clients.add(new Client(i, role, new Random(seed + i)));
        }
    }

    /** The configuration: the shape's flavor, priority classes, queues; the seed's TPU queue, twice its quota. */
    static List<String> configuration() {
        List<String> documents = new ArrayList<>(SHAPE.manifests(100));
        documents.add(String.join("---", SeedManifests.documents(SEED).stream().filter(d -> !d.contains("kind: JobSet"))
                .toList()).replace("nominalQuota: 32", "nominalQuota: 64"));
        return documents;
    }

    void start() {
        clients.forEach(client -> client.thread.start());
    }

    Ledger ledger() {
        return new Ledger(List.copyOf(acknowledged), Set.copyOf(deletesSent), Set.copyOf(deletesAcknowledged));
    }

    /** Answers other than 2xx, a 503 with {@code Retry-After}, 429, or a 409/422 of a priority change. */
    List<String> wrongAnswers() {
        return List.copyOf(wrongAnswers);
    }

    Map<String, Integer> counts() {
        Map<String, Integer> copy = new TreeMap<>();
        counts.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }

    /** Submissions and deletions sent and not answered yet. */
    int inFlight() {
        return inFlight.get();
    }

    /** When the next round starts: the clients fire together then. */
    Instant nextRound() {
        long elapsed = Duration.between(epoch, Instant.now()).toMillis();
        return epoch.plusMillis((elapsed / ROUND.toMillis() + 1) * ROUND.toMillis());
    }

    /** One user: its own thread, its own choices drawn from the seed, its own workloads. */
    private final class Client {

        private final int index;
        private final Role role;
        private final Random random;
        private final Thread thread;
        /** Its acknowledged workloads not seen ended yet. */
        private final List<Acknowledged> unfinished = new ArrayList<>();
        private int next;
        private long round;
        /** REAPPLY: the acknowledged workload holding its name, if any. */
        private Acknowledged holding;
        /** REAPPLY: its last submission was given up unanswered, so its name may be held by what it does not know. */
        private boolean nameUncertain;
        private String failedPool;
        private Instant failedAt;

        Client(int index, Role role, Random random) {
            this.index = index;
            this.role = role;
            this.random = random;
            this.thread = new Thread(this::run, "soak-client-" + index);
            this.thread.setDaemon(true);
        }

        private void run() {
            while (!stopped) {
                if (!sleepUntil(nextRound())) {
                    return;
                }
                round = Duration.between(epoch, Instant.now()).toMillis() / ROUND.toMillis();
                try {
                    act();
                } catch (RuntimeException databaseAway) {
                    count("roundsFailed");
                }
            }
        }

        private void act() {
            switch (role) {
                case TPU -> {
                    if (stillUnfinished() < TPU_OUTSTANDING) {
                        submitTpu();
                    }
                    if (agent != null) {
                        poolFailures(random.nextInt(15) == 0);
                    }
                }
                case CPU -> {
                    if (stillUnfinished() < OUTSTANDING_PER_CLIENT) {
                        submitCpu();
                    } else {
                        changeOne();
                    }
                }
                case REAPPLY -> reapply();
            }
        }

        /** How many of its workloads have not ended; those that have are forgotten. */
        private int stillUnfinished() {
            if (!unfinished.isEmpty()) {
                Set<String> ended = new HashSet<>(jdbc.sql("""
                        SELECT uid::text FROM workload WHERE uid = ANY(?) AND state IN ('Finished', 'Failed')""")
                        .param(unfinished.stream().map(a -> UUID.fromString(a.uid())).toArray(UUID[]::new))
                        .query(String.class).list());
                unfinished.removeIf(a -> ended.contains(a.uid()));
            }
            return unfinished.size();
        }

        private void submitCpu() {
            String queue = SHAPE.clusterQueues().get(random.nextInt(SHAPE.clusterQueues().size()));
            KueueShape.WorkloadClass workloadClass = SHAPE.classes().get(random.nextInt(SHAPE.classes().size()));
            String name = workloadClass.name() + "-" + index + "-" + next++;
            submit(queue, name, name, cpuJobSet(queue, name, workloadClass)).ifPresent(unfinished::add);
        }

        /** The seed's JobSets, renamed, running a minute: high and low priority in turn. */
        private void submitTpu() {
            String template = next % 2 == 0 ? "high-jax-trillium" : "low-jax-trillium";
            String name = template.substring(0, template.indexOf('-')) + "-tpu-" + next++;
            String yaml = SeedManifests.document(SEED, template).replace("name: " + template + "\n", "name: " + name + "\n")
                    .replace("  annotations:\n", "  annotations:\n    platform.dev/simulated-runtime: 60s\n");
            submit(TPU_NAMESPACE, name, name, yaml).ifPresent(unfinished::add);
        }

        /** Now and then, one of its unfinished workloads cancelled or given another priority class. */
        private void changeOne() {
            int dice = random.nextInt(100);
            if (dice >= 10 || unfinished.isEmpty()) {
                return;
            }
            Acknowledged changed = unfinished.get(random.nextInt(unfinished.size()));
            if (dice < 5) {
                delete(changed, "cancels");
            } else {
                String priorityClass = SHAPE.classes().get(random.nextInt(SHAPE.classes().size())).name();
                patchPriority(changed, priorityClass);
            }
        }

        /**
         * Deletes the workload holding its name (three rounds in four), or applies the name again once it is free:
         * a new workload under a new key. After a submission given up unanswered the name is deleted first, whatever
         * holds it.
         */
        private void reapply() {
            String queue = SHAPE.clusterQueues().get(index % SHAPE.clusterQueues().size());
            String name = "again-" + index;
            if (holding != null || nameUncertain) {
                if (random.nextInt(4) != 0) {
                    Acknowledged deleting = holding != null ? holding
                            : new Acknowledged(queue, name, null, null);
                    if (delete(deleting, "reapplyDeletes")) {
                        holding = null;
                        nameUncertain = false;
                    }
                }
                return;
            }
            KueueShape.WorkloadClass workloadClass = SHAPE.classes().get(random.nextInt(SHAPE.classes().size()));
            String key = name + "." + next++;
            Optional<Acknowledged> applied = submit(queue, name, key, cpuJobSet(queue, name, workloadClass));
            holding = applied.orElse(null);
            nameUncertain = applied.isEmpty();
            if (applied.isPresent()) {
                count("reapplied");
            }
        }

        private Optional<Acknowledged> submit(String namespace, String name, String key, String yaml) {
            count("submissions");
            Optional<Response> answer = untilAnswered("POST", "/api/v1/namespaces/" + namespace + "/workloads",
                    Map.of("Idempotency-Key", key), "application/yaml", yaml);
            if (answer.isEmpty()) {
                count("submissionsGivenUp");
                return Optional.empty();
            }
            if (answer.get().status() / 100 != 2) {
                wrongAnswers.add("POST " + namespace + "/" + name + " (key " + key + "): " + answer.get().status() + " "
                        + answer.get().body());
                return Optional.empty();
            }
            Acknowledged ack = new Acknowledged(namespace, name, key, answer.get().json().get("uid").asString());
            acknowledged.add(ack);
            count("acknowledged");
            return Optional.of(ack);
        }

        /**
         * Deletes {@code workload} by its name, retried until answered 2xx; true once it was. A 404 is right only for
         * a name whose holder the client does not know (its submission given up unanswered): nothing took it.
         */
        private boolean delete(Acknowledged workload, String counter) {
            if (workload.uid() != null) {
                deletesSent.add(workload.uid());
            }
            Optional<Response> answer = untilAnswered("DELETE", "/api/v1/namespaces/" + workload.namespace()
                    + "/workloads/" + workload.name(), Map.of(), null, null);
            if (answer.isEmpty()) {
                count("deletesGivenUp");
                return false;
            }
            Response response = answer.get();
            if (response.status() / 100 == 2) {
                String deleted = response.json().get("uid").asString();
                deletesAcknowledged.add(deleted);
                if (workload.uid() != null && !workload.uid().equals(deleted)) {
                    wrongAnswers.add("DELETE " + workload.namespace() + "/" + workload.name() + " of workload "
                            + workload.uid() + " answered with workload " + deleted);
                }
                count(counter);
                return true;
            }
            if (response.status() == 404 && workload.uid() == null) {
                return true;
            }
            wrongAnswers.add("DELETE " + workload.namespace() + "/" + workload.name() + ": " + response.status() + " "
                    + response.body());
            return false;
        }

        private void patchPriority(Acknowledged workload, String priorityClass) {
            try {
                inFlight.incrementAndGet();
                Response response = scheduler(0).send("PATCH", "/api/v1/namespaces/" + workload.namespace()
                                + "/workloads/" + workload.name(), Map.of(), "application/merge-patch+json",
                        "{\"metadata\": {\"labels\": {\"kueue.x-k8s.io/priority-class\": \"" + priorityClass + "\"}}}");
                if (response.status() / 100 == 2) {
                    count("priorityChanges");
                } else if (!retryable(response) && response.status() != 409 && response.status() != 422) {
                    // 409: cancelled or finished meanwhile; 422: a change a finished workload does not take
                    wrongAnswers.add("PATCH " + workload.name() + ": " + response.status() + " " + response.body());
                }
            } catch (RuntimeException timeoutOrRefused) {
                count("connectionFailures");
            } finally {
                inFlight.decrementAndGet();
            }
        }

        /**
         * The request sent until answered other than 503 with {@code Retry-After} or 429, the round's scheduler first
         * and the other one at each retry; empty if that took longer than {@link #GIVE_UP} or the load stopped.
         */
        private Optional<Response> untilAnswered(String method, String path, Map<String, String> headers,
                                                 String contentType, String body) {
            Instant giveUp = Instant.now().plus(GIVE_UP);
            for (int attempt = 0; !stopped && Instant.now().isBefore(giveUp); attempt++) {
                inFlight.incrementAndGet();
                try {
                    Response response = scheduler(attempt).send(method, path, headers, contentType, body);
                    if (!retryable(response)) {
                        return Optional.of(response);
                    }
                    count("answered" + response.status());
                } catch (RuntimeException timeoutOrRefused) {
                    count("connectionFailures");
                } finally {
                    inFlight.decrementAndGet();
                }
                if (!sleepUntil(Instant.now().plus(RETRY_PAUSE))) {
                    break;
                }
            }
            return Optional.empty();
        }

        private PlatformClient scheduler(int attempt) {
            List<PlatformClient> all = schedulers.get();
            return all.get((int) Math.floorMod(round + attempt, (long) all.size()));
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
    }

    private static String cpuJobSet(String queue, String name, KueueShape.WorkloadClass workloadClass) {
        return KueueShape.jobSet(new KueueShape.Arrival(Duration.ZERO, queue, name, workloadClass));
    }

    private static boolean retryable(Response response) {
        return (response.status() == 503 && response.header("Retry-After") != null) || response.status() == 429;
    }

    private void count(String counter) {
        counts.computeIfAbsent(counter, c -> new AtomicInteger()).incrementAndGet();
    }

    /** Pacing of the rounds and of retries: no assertion waits on it. False once the load is stopped. */
    private boolean sleepUntil(Instant until) {
        long millis = Duration.between(Instant.now(), until).toMillis();
        try {
            if (millis > 0) {
                Thread.sleep(millis);
            }
            return !stopped;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        for (Client client : clients) {
            client.thread.interrupt();
        }
        for (Client client : clients) {
            client.thread.join(Duration.ofMinutes(1).toMillis());
        }
    }
}
