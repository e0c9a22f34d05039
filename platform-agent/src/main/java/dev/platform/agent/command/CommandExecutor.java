package dev.platform.agent.command;

import dev.platform.agent.AgentMetrics;
import dev.platform.agent.cluster.Cluster;
import dev.platform.agent.cluster.ClusterJob;
import dev.platform.agent.cluster.ClusterPod;
import dev.platform.agent.cluster.EvictionOutcome;
import dev.platform.agent.cluster.JobKind;
import dev.platform.agent.cluster.KubernetesCluster;
import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.EvictionProgress;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import org.slf4j.LoggerFactory;

/**
 * Executes scheduler commands on JobSets and batch Jobs with exactly-once effect under at-least-once delivery: a
 * command id already executed by this process answers its first result again; across restarts the
 * object's platform.dev/last-command-id annotation and the cluster state make each step a no-op
 * the second time (create when absent, suspend when running, evict what still runs). Safe for
 * concurrent use on commands of different workloads; one workload's commands come one at a time.
 */
public class CommandExecutor {

    private static final Logger log = LoggerFactory.getLogger(CommandExecutor.class);
    private static final int REMEMBERED_RESULTS = 1024;
    private static final long POD_GONE_CHECK_MILLIS = 100;

    private final Cluster cluster;
    private final Clock clock;
    private final EvictionPolicy evictionPolicy;
    private final String agentId;
    private final AgentMetrics metrics;
    private final Function<String, Map<String, String>> podAnnotations;
    private final Map<Long, CommandResult> executed = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, CommandResult> eldest) {
            return size() > REMEMBERED_RESULTS;
        }
    };

    /**
     * @param podAnnotations for a workload uid, the annotations its pods get at START and RESTART: those that pin
     *                       them to the capacity a ProvisioningRequest provisioned for it, none otherwise
     */
    public CommandExecutor(Cluster cluster, Clock clock, EvictionPolicy evictionPolicy, String agentId,
                           AgentMetrics metrics, Function<String, Map<String, String>> podAnnotations) {
        this.podAnnotations = podAnnotations;
        this.cluster = cluster;
        this.clock = clock;
        this.evictionPolicy = evictionPolicy;
        this.agentId = agentId;
        this.metrics = metrics;
    }

    /**
     * Runs one command to a final result. {@code progress} receives non-final (RETRYING) results,
     * e.g. when a PodDisruptionBudget holds an eviction back.
     */
    public CommandResult execute(AgentCommand command, Consumer<CommandResult> progress) {
        CommandResult previous;
        synchronized (executed) {
            previous = executed.get(command.id());
        }
        if (previous != null) {
            return previous;
        }
        long started = System.nanoTime();
        CommandResult result = isExpired(command)
                ? result(command, CommandStatus.REFUSED_EXPIRED, "expired at " + command.expiresAt() + ", not executed", null)
                : run(command, progress);
        if (Thread.currentThread().isInterrupted()) {
            // cut short by the loss of leadership: not an answer to give if the command comes back
            return result;
        }
        metrics.commandExecuted(command.type(), result.status(), Duration.ofNanos(System.nanoTime() - started));
        synchronized (executed) {
            executed.put(command.id(), result);
        }
        log.info("command {} {} {}/{}: {} {}", command.id(), command.type(), command.namespace(), command.name(),
                result.status(), result.message());
        return result;
    }

    private boolean isExpired(AgentCommand command) {
        return command.expiresAt() != null && !clock.instant().isBefore(command.expiresAt());
    }

    private CommandResult run(AgentCommand command, Consumer<CommandResult> progress) {
        try {
            return switch (command.type()) {
                case START -> start(command);
                case STOP -> stop(command, progress);
                case RESTART -> restart(command, progress);
                case DELETE -> delete(command);
            };
        } catch (RuntimeException e) {
            log.warn("command {} failed", command.id(), e);
            return new CommandResult(command.id(), CommandStatus.FAILED, e.toString(), null, agentId, clock.instant(),
                    isTransient(e));
        }
    }

    /**
     * Whether a failure may pass when the command is tried again later: the API server did not answer, or
     * answered with an error that says so ({@link KubernetesCluster.ClusterCallException#isTransient()}), or the
     * connection failed. Anything else (an invalid manifest, a refusal) would fail the same way again.
     */
    static boolean isTransient(RuntimeException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof KubernetesCluster.ClusterCallException call) {
                return call.isTransient();
            }
            if (cause instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    private CommandResult start(AgentCommand command) {
        if (command.payload() == null) {
            return result(command, CommandStatus.FAILED, "START without a manifest", null);
        }
        JobKind kind = JobMaterializer.kindOf(command);
        Optional<ClusterJob> existing = cluster.job(kind, command.namespace(), command.name());
        if (existing.isPresent() && alreadyApplied(existing.get(), command)) {
            return result(command, CommandStatus.SUCCEEDED, "already applied", null);
        }
        var desired = JobMaterializer.materialize(kind, command, podAnnotations.apply(command.workloadUid()));
        if (existing.isEmpty() && cluster.createJob(kind, desired)) {
            return result(command, CommandStatus.SUCCEEDED, kind.kind() + " created", null);
        }
        // an adopted submission, or an object created by a delivery of this command we did not see answered
        cluster.patchJob(kind, command.namespace(), command.name(), JobMaterializer.patchFor(kind, desired));
        return result(command, CommandStatus.SUCCEEDED, "existing " + kind.kind() + " pinned and resumed", null);
    }

    private CommandResult stop(AgentCommand command, Consumer<CommandResult> progress) {
        Optional<ClusterJob> stopped = located(command).map(this::suspend);
        if (stopped.isEmpty()) {
            return result(command, CommandStatus.SUCCEEDED, "no JobSet or Job to stop", null);
        }
        Evictions evictions = evictAll(command, progress);
        if (!evictions.blocked.isEmpty()) {
            return result(command, CommandStatus.FAILED, evictions.blocked.size()
                    + " pod(s) still protected by a PodDisruptionBudget after " + evictionPolicy.timeout(), evictions.progress());
        }
        return result(command, CommandStatus.SUCCEEDED, stopped.get().kind().kind() + " suspended, " + evictions.evicted
                + " pod(s) evicted", evictions.progress());
    }

    /**
     * Hotswap with JobSet's BlockingRecreate semantics: every old pod is gone before the JobSet
     * resumes on the new pools, so no slice ever runs half on the old pools and half on the new.
     */
    private CommandResult restart(AgentCommand command, Consumer<CommandResult> progress) {
        Optional<ClusterJob> existing = cluster.job(JobMaterializer.kindOf(command), command.namespace(), command.name());
        if (existing.isPresent() && alreadyApplied(existing.get(), command)) {
            return result(command, CommandStatus.SUCCEEDED, "already applied", null);
        }
        EvictionProgress evicted = null;
        if (existing.isPresent()) {
            suspend(existing.get());
            Evictions evictions = evictAll(command, progress);
            evicted = evictions.progress();
            if (!evictions.blocked.isEmpty()) {
                return result(command, CommandStatus.FAILED, "old pods protected by a PodDisruptionBudget; not restarted", evicted);
            }
            if (!awaitPodsGone(command.workloadUid())) {
                return result(command, CommandStatus.FAILED, "old pods still present after " + evictionPolicy.timeout(), evicted);
            }
        }
        CommandResult started = start(command);
        return result(command, started.status(), "old pods gone; " + started.message(), evicted);
    }

    private CommandResult delete(AgentCommand command) {
        Optional<ClusterJob> job = located(command);
        if (job.isEmpty()) {
            return result(command, CommandStatus.SUCCEEDED, "no JobSet or Job to delete", null);
        }
        cluster.deleteJob(job.get().kind(), command.namespace(), command.name());
        return result(command, CommandStatus.SUCCEEDED, job.get().kind().kind() + " deleted", null);
    }

    /**
     * The JobSet or Job a STOP or DELETE is for, which carry no manifest to tell the kind: the one the platform
     * started for the command's workload (its workload-uid label), else the namesake JobSet, else the namesake Job
     * (a submission found in the cluster and not started yet).
     */
    private Optional<ClusterJob> located(AgentCommand command) {
        Optional<ClusterJob> namesake = Optional.empty();
        for (JobKind kind : JobKind.values()) {
            Optional<ClusterJob> job = cluster.job(kind, command.namespace(), command.name());
            if (job.isPresent() && command.workloadUid().equals(job.get().workloadUid())) {
                return job;
            }
            if (namesake.isEmpty()) {
                namesake = job;
            }
        }
        return namesake;
    }

    private ClusterJob suspend(ClusterJob job) {
        if (!job.suspended()) {
            ObjectNode patch = JsonNodeFactory.instance.objectNode();
            patch.putObject("spec").put("suspend", true);
            cluster.patchJob(job.kind(), job.namespace(), job.name(), patch);
        }
        return job;
    }

    private boolean alreadyApplied(ClusterJob jobSet, AgentCommand command) {
        return Long.toString(command.id()).equals(jobSet.lastCommandId());
    }

    private static final class Evictions {
        int evicted;
        int rejections;
        final Set<String> done = new HashSet<>();
        List<String> blocked = List.of();

        EvictionProgress progress() {
            return new EvictionProgress(evicted, rejections, blocked);
        }
    }

    /**
     * Suspension alone would let the Job controller delete pods regardless of disruption
     * budgets; evicting them explicitly makes a 429 visible, retried with backoff and reported.
     */
    private Evictions evictAll(AgentCommand command, Consumer<CommandResult> progress) {
        Evictions evictions = new Evictions();
        Instant deadline = clock.instant().plus(evictionPolicy.timeout());
        for (int attempt = 0; ; attempt++) {
            List<String> blocked = new ArrayList<>();
            for (ClusterPod pod : cluster.podsOf(command.workloadUid())) {
                if (!pod.isActive() || evictions.done.contains(pod.key())) {
                    continue;
                }
                EvictionOutcome outcome = cluster.evictPod(pod.namespace(), pod.name());
                metrics.eviction(outcome);
                switch (outcome) {
                    case EVICTED -> {
                        evictions.evicted++;
                        evictions.done.add(pod.key());
                    }
                    case GONE -> evictions.done.add(pod.key());
                    case BLOCKED_BY_DISRUPTION_BUDGET -> {
                        evictions.rejections++;
                        blocked.add(pod.key());
                    }
                }
            }
            evictions.blocked = List.copyOf(blocked);
            if (blocked.isEmpty()) {
                return evictions;
            }
            if (attempt == 0) {
                progress.accept(result(command, CommandStatus.RETRYING,
                        blocked.size() + " eviction(s) refused by a PodDisruptionBudget; retrying", evictions.progress()));
            }
            var delay = evictionPolicy.retry().delay(attempt, ThreadLocalRandom.current());
            if (clock.instant().plus(delay).isAfter(deadline) || !Pause.of(delay.toMillis())) {
                return evictions;
            }
        }
    }

    private boolean awaitPodsGone(String workloadUid) {
        Instant deadline = clock.instant().plus(evictionPolicy.timeout());
        while (cluster.podsOf(workloadUid).stream().anyMatch(ClusterPod::isActive)) {
            if (clock.instant().isAfter(deadline) || !Pause.of(POD_GONE_CHECK_MILLIS)) {
                return false;
            }
        }
        return true;
    }

    private CommandResult result(AgentCommand command, CommandStatus status, String message, EvictionProgress eviction) {
        return new CommandResult(command.id(), status, message, eviction, agentId, clock.instant());
    }
}
