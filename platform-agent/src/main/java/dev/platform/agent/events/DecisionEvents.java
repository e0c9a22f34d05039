package dev.platform.agent.events;

import dev.platform.agent.cluster.ClusterJobSet;
import dev.platform.agent.cluster.JobSetListener;
import dev.platform.agent.scheduler.SchedulerClient;
import dev.platform.agent.scheduler.SchedulerUnavailableException;
import dev.platform.api.agent.AgentDecision;
import dev.platform.api.agent.AgentDecisions;
import java.time.Duration;
import java.util.HashMap;
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
 * sees in the cluster through the {@link EventRecorder}. A scheduler without the feed (an earlier version) is
 * asked again only every {@link #OLD_SCHEDULER_RETRY}.
 */
public class DecisionEvents implements JobSetListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DecisionEvents.class);
    static final Duration INTERVAL = Duration.ofSeconds(2);
    static final Duration OLD_SCHEDULER_RETRY = Duration.ofMinutes(10);

    private final SchedulerClient scheduler;
    private final EventRecorder recorder;
    private final BooleanSupplier leading;
    private final Map<String, ClusterJobSet> jobSets = new HashMap<>();
    private final Thread thread;
    private volatile boolean running = true;
    /** The feed's position; null until this replica has asked where the feed stands, at each start of leading. */
    private volatile Long cursor;

    public DecisionEvents(SchedulerClient scheduler, EventRecorder recorder, BooleanSupplier leading) {
        this.scheduler = scheduler;
        this.recorder = recorder;
        this.leading = leading;
        this.thread = new Thread(this::run, "decision-events");
        thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** This replica leads from now on: it writes what the platform decides from now on. */
    public void lead() {
        cursor = null;
    }

    @Override
    public synchronized void jobSetChanged(ClusterJobSet jobSet) {
        jobSets.put(jobSet.key(), jobSet);
    }

    @Override
    public synchronized void jobSetRemoved(String namespace, String name) {
        jobSets.remove(namespace + "/" + name);
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
        if (after != null) {
            for (AgentDecision decision : answer.get().items()) {
                jobSetOf(decision).ifPresent(jobSet -> recorder.record(jobSet, decision.type(), decision.reason(),
                        decision.message(), decision.at()));
            }
        }
        cursor = answer.get().last();
        return answer.get().more() ? Duration.ZERO : INTERVAL;
    }

    /** The JobSet a decision is about, if the cluster has it: the one submitted here, or the one the platform made. */
    private synchronized Optional<ClusterJobSet> jobSetOf(AgentDecision decision) {
        ClusterJobSet jobSet = jobSets.get(decision.namespace() + "/" + decision.name());
        if (jobSet == null) {
            return Optional.empty();
        }
        boolean same = decision.jobSetUid() != null ? decision.jobSetUid().equals(jobSet.uid())
                : decision.workloadUid().equals(jobSet.workloadUid());
        return same ? Optional.of(jobSet) : Optional.empty();
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
