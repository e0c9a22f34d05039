package dev.platform.agent.command;

import dev.platform.agent.AgentMetrics;
import dev.platform.agent.cluster.Cluster;
import dev.platform.agent.cluster.ClusterJob;
import dev.platform.agent.cluster.ClusterPod;
import dev.platform.agent.cluster.EvictionOutcome;
import dev.platform.agent.cluster.JobKind;
import dev.platform.agent.cluster.JobListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * No webhook, no bypass: a JobSet or Job that names a queue runs only once the platform has admitted it. One that runs
 * without the platform's admission (created while the admission webhook was not installed, or let through by
 * {@code failurePolicy: Ignore} while no agent answered) is suspended at once, its pods evicted through the Eviction
 * API (PodDisruptionBudgets respected), and left suspended with its queue name: the report then carries it as a
 * submission, as if the webhook had suspended it, and the platform starts it when it admits it. Only the leading
 * replica acts; a replica that comes to lead takes up what it saw while following.
 */
public class UnadmittedJobs implements JobListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(UnadmittedJobs.class);

    private final Cluster cluster;
    private final Clock clock;
    private final EvictionPolicy evictionPolicy;
    private final BooleanSupplier leading;
    private final AgentMetrics metrics;
    private final MeterRegistry registry;
    /** Objects seen running unadmitted, by key, until the watch shows them suspended, finished or gone. */
    private final Map<String, Seen> running = new TreeMap<>();
    private final ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "unadmitted-jobs");
        thread.setDaemon(true);
        return thread;
    });

    public UnadmittedJobs(Cluster cluster, Clock clock, EvictionPolicy evictionPolicy, BooleanSupplier leading,
                             AgentMetrics metrics, MeterRegistry registry) {
        this.cluster = cluster;
        this.clock = clock;
        this.evictionPolicy = evictionPolicy;
        this.leading = leading;
        this.metrics = metrics;
        this.registry = registry;
        for (String outcome : List.of("suspended", "failed")) {
            counter(outcome);
        }
    }

    /** An object seen running unadmitted. */
    private record Seen(JobKind kind, String namespace, String name) {
    }

    /**
     * Names a queue, runs (neither suspended nor finished), and carries no mark of the platform's: the platform's
     * START labels the object with its workload in the same patch that resumes it.
     */
    static boolean runsUnadmitted(ClusterJob job) {
        return job.queueName() != null && !job.suspended() && job.terminalState() == null && job.workloadUid() == null;
    }

    @Override
    public void jobChanged(ClusterJob job) {
        boolean act = false;
        Seen seen = new Seen(job.kind(), job.namespace(), job.name());
        synchronized (running) {
            if (runsUnadmitted(job)) {
                act = running.put(job.key(), seen) == null;
            } else {
                running.remove(job.key());
            }
        }
        if (act && leading.getAsBoolean()) {
            worker.execute(() -> suspend(seen));
        }
    }

    @Override
    public void jobRemoved(JobKind kind, String namespace, String name) {
        synchronized (running) {
            running.remove(kind.key(namespace, name));
        }
    }

    /** This replica leads from now on: what it saw running unadmitted while following is suspended now. */
    public void lead() {
        List<Seen> seen;
        synchronized (running) {
            seen = List.copyOf(running.values());
        }
        for (Seen job : seen) {
            worker.execute(() -> suspend(job));
        }
    }

    private void suspend(Seen job) {
        if (!leading.getAsBoolean()) {
            return;
        }
        String kind = job.kind().kind();
        try {
            Optional<ClusterJob> current = cluster.job(job.kind(), job.namespace(), job.name());
            if (current.isEmpty() || !runsUnadmitted(current.get())) {
                return;
            }
            ObjectNode patch = JsonNodeFactory.instance.objectNode();
            patch.putObject("spec").put("suspend", true);
            cluster.patchJob(job.kind(), job.namespace(), job.name(), patch);
            Evicted evicted = evictPods(job);
            counter("suspended").increment();
            log.warn("{} {}/{} names queue {} but ran without the platform's admission (created while the"
                            + " admission webhook was absent, or let through by failurePolicy Ignore): suspended, {} pod(s)"
                            + " evicted{}; submitted to the platform, which starts it when it admits it", kind,
                    job.namespace(), job.name(), current.get().queueName(), evicted.count(),
                    evicted.blocked().isEmpty() ? "" : ", " + evicted.blocked().size()
                            + " still protected by a PodDisruptionBudget " + evicted.blocked() + " (the " + kind
                            + "'s suspension removes them)");
        } catch (RuntimeException e) {
            counter("failed").increment();
            log.warn("{} {}/{} runs without the platform's admission and could not be suspended; retrying in {}",
                    kind, job.namespace(), job.name(), evictionPolicy.retry().max(), e);
            worker.schedule(() -> suspend(job), evictionPolicy.retry().max().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private record Evicted(int count, List<String> blocked) {
    }

    /** Each active pod through the Eviction API; a 429 is retried with backoff until the eviction policy's timeout. */
    private Evicted evictPods(Seen job) {
        Instant deadline = clock.instant().plus(evictionPolicy.timeout());
        Set<String> done = new TreeSet<>();
        int evicted = 0;
        for (int attempt = 0; ; attempt++) {
            List<String> blocked = new ArrayList<>();
            for (ClusterPod pod : cluster.podsOfJob(job.kind(), job.namespace(), job.name())) {
                if (!pod.isActive() || done.contains(pod.key())) {
                    continue;
                }
                EvictionOutcome outcome = cluster.evictPod(pod.namespace(), pod.name());
                metrics.eviction(outcome);
                switch (outcome) {
                    case EVICTED -> {
                        evicted++;
                        done.add(pod.key());
                    }
                    case GONE -> done.add(pod.key());
                    case BLOCKED_BY_DISRUPTION_BUDGET -> blocked.add(pod.key());
                }
            }
            var delay = evictionPolicy.retry().delay(attempt, ThreadLocalRandom.current());
            if (blocked.isEmpty() || clock.instant().plus(delay).isAfter(deadline) || !Pause.of(delay.toMillis())) {
                return new Evicted(evicted, blocked);
            }
        }
    }

    private Counter counter(String outcome) {
        return Counter.builder("platform.agent.jobsets.unadmitted")
                .description("JobSets and Jobs that named a queue and ran without the platform's admission, by what the"
                        + " agent did")
                .tag("outcome", outcome).register(registry);
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
