package dev.platform.agent.events;

import dev.platform.agent.cluster.ClusterJob;
import dev.platform.agent.cluster.JobKind;
import dev.platform.agent.cluster.JobListener;
import dev.platform.agent.scheduler.SchedulerClient;
import dev.platform.agent.scheduler.SchedulerUnavailableException;
import dev.platform.api.agent.AgentDecision;
import dev.platform.api.agent.AgentDecisions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The platform's decisions as Events on the JobSets in the cluster, so {@code kubectl describe jobset} there says
 * why a JobSet waits, when it was admitted, preempted, hotswapped or finished. While this replica leads, it follows
 * the scheduler's decision feed from where the feed stood when it began to lead (decisions made while no agent
 * led are not written: Events are best effort, as Kubernetes' own), and writes each decision about a JobSet it
 * sees in the cluster through the {@link EventRecorder}; a decision that comes before its JobSet (the platform admits
 * a workload submitted through it before its START creates the JobSet) waits up to {@link #AWAITING_JOBSET} for it. A scheduler without the feed (an earlier version) is
 * asked again only every {@link #OLD_SCHEDULER_RETRY}.
 */
public class DecisionEvents implements JobListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DecisionEvents.class);
    static final Duration INTERVAL = Duration.ofSeconds(2);
    static final Duration OLD_SCHEDULER_RETRY = Duration.ofMinutes(10);
    /**
     * How long a decision waits for its JobSet to appear in the watch: the platform admits a workload submitted
     * through it before its START creates the JobSet, so its first decisions come before the JobSet does.
     */
    static final Duration AWAITING_JOBSET = Duration.ofMinutes(1);
    private static final int MAX_AWAITING = 10_000;

    private final SchedulerClient scheduler;
    private final EventRecorder recorder;
    private final BooleanSupplier leading;
    private final Map<String, ClusterJob> jobSets = new HashMap<>();
    /** Decisions whose JobSet the watch has not shown yet, in feed order, with when they were read. */
    private final Deque<Awaiting> awaiting = new ArrayDeque<>();
    private final Clock clock;

    private record Awaiting(AgentDecision decision, Instant readAt) {
    }
    private final Thread thread;
    private volatile boolean running = true;
    /** The feed's position; null until this replica has asked where the feed stands, at each start of leading. */
    private volatile Long cursor;

    public DecisionEvents(SchedulerClient scheduler, EventRecorder recorder, BooleanSupplier leading, Clock clock) {
        this.clock = clock;
        this.scheduler = scheduler;
        this.recorder = recorder;
        this.leading = leading;
        this.thread = new Thread(this::run, "decision-events");
        thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /**
     * This replica leads from now on: it writes what the platform decides from now on. Where the feed stands is asked
     * here, before the leader reports or submits anything, so the first decisions about what it submits are not
     * taken for earlier ones; a scheduler that cannot answer now is asked on the feed's next turn.
     */
    public void lead() {
        synchronized (this) {
            awaiting.clear();
        }
        cursor = null;
        try {
            Long standing = scheduler.decisions(null).map(AgentDecisions::last).orElse(null);
            synchronized (this) {
                cursor = standing;
            }
        } catch (SchedulerUnavailableException | RuntimeException e) {
            log.debug("where the decision feed stands not read on leading: {}", e.getMessage());
        }
    }

    @Override
    public synchronized void jobChanged(ClusterJob jobSet) {
        jobSets.put(jobSet.key(), jobSet);
    }

    @Override
    public synchronized void jobRemoved(JobKind kind, String namespace, String name) {
        jobSets.remove(kind.key(namespace, name));
    }

    private void run() {
        while (running) {
            Duration wait = INTERVAL;
            try {
                if (leading.getAsBoolean()) {
                    wait = follow();
                }
            } catch (SchedulerUnavailableException e) {
                log.debug("decisions not read: {}", e.getMessage());
            } catch (RuntimeException e) {
                log.warn("decisions not written as events", e);
            }
            try {
                Thread.sleep(wait.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Reads the feed and writes its decisions; returns how long to wait before reading it again. */
    private Duration follow() throws SchedulerUnavailableException {
        Long after = cursor;
        Optional<AgentDecisions> answer = scheduler.decisions(after);
        if (answer.isEmpty()) {
            log.info("the scheduler serves no decisions (an earlier version): no Events on JobSets; asking again in {}",
                    OLD_SCHEDULER_RETRY);
            return OLD_SCHEDULER_RETRY;
        }
        List<Awaiting> due = new ArrayList<>();
        synchronized (this) {
            due.addAll(awaiting);
            awaiting.clear();
            if (after != null) {
                Instant now = clock.instant();
                answer.get().items().forEach(d -> due.add(new Awaiting(d, now)));
            }
        }
        for (Awaiting next : due) {
            write(next);
        }
        synchronized (this) {
            if (after != null || cursor == null) {
                // a first question that lead() overtook leaves the place lead() found
                cursor = answer.get().last();
            }
        }
        return answer.get().more() ? Duration.ZERO : INTERVAL;
    }

    /**
     * Writes a decision on its JobSet: the one submitted here, or the one the platform made. One whose JobSet the
     * watch does not show (yet) waits for it, for {@link #AWAITING_JOBSET}; one whose namesake is another JobSet
     * is not written.
     */
    private void write(Awaiting next) {
        AgentDecision decision = next.decision();
        ClusterJob jobSet;
        synchronized (this) {
            jobSet = namesake(decision);
            if (!isTheDecisions(decision, jobSet)) {
                boolean mayAppear = jobSet == null || decision.jobSetUid() == null && jobSet.workloadUid() == null;
                if (mayAppear && clock.instant().isBefore(next.readAt().plus(AWAITING_JOBSET))
                        && awaiting.size() < MAX_AWAITING) {
                    awaiting.add(next);
                }
                return;
            }
        }
        recorder.record(jobSet, decision.type(), decision.reason(), decision.message(), decision.at());
    }

    /**
     * The JobSet or Job of the decision's namespace and name in the watch: the one that is the decision's when both
     * kinds have an object of that name, else the JobSet, else the Job.
     */
    private ClusterJob namesake(AgentDecision decision) {
        ClusterJob found = null;
        for (JobKind kind : JobKind.values()) {
            ClusterJob job = jobSets.get(kind.key(decision.namespace(), decision.name()));
            if (isTheDecisions(decision, job)) {
                return job;
            }
            if (found == null) {
                found = job;
            }
        }
        return found;
    }

    /** The object submitted as the decision's workload here, or the one the platform made for it. */
    private static boolean isTheDecisions(AgentDecision decision, ClusterJob job) {
        return job != null && (decision.jobSetUid() != null ? decision.jobSetUid().equals(job.uid())
                : decision.workloadUid().equals(job.workloadUid()));
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
