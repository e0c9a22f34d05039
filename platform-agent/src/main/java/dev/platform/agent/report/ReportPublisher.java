package dev.platform.agent.report;

import dev.platform.agent.cluster.ClusterEvents;
import dev.platform.agent.cluster.ClusterJob;
import dev.platform.agent.cluster.JobKind;
import dev.platform.agent.cluster.ClusterNode;
import dev.platform.agent.cluster.ClusterPod;
import dev.platform.agent.scheduler.Backoff;
import dev.platform.agent.scheduler.ReportAcceptance;
import dev.platform.agent.scheduler.SchedulerClient;
import dev.platform.agent.scheduler.SchedulerUnavailableException;
import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.ReportKind;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes the inventory to the scheduler: a FULL report when the agent starts leading or after
 * any failed send (the scheduler may have missed a delta), then DELTA reports as changes happen.
 * A change schedules a send after a short coalescing window so a burst (a whole slice going
 * NotReady) travels as one report, well inside the 1 s budget from informer event to scheduler.
 * A quiet cluster still sends an empty DELTA every {@code heartbeat}: the scheduler takes a
 * silent agent's inventory for stale and its pools for Unknown. Every {@code fullReportInterval} the
 * report is a FULL one even when nothing failed: only a FULL report tells the scheduler what is not in
 * the cluster (a JobSet deleted by hand, a cluster rebuilt), so it reconciles at least that often.
 *
 * <p>The scheduler hears one agent instance per cluster: this one {@link #speaks()} once a FULL report of it is
 * accepted, and commands are taken only then. While another instance speaks, the scheduler refuses the reports and
 * they are retried with the backoff, the refusal logged. On losing the leadership or shutting down, a last report
 * {@link #resign() gives the place up}, so the next agent is heard at once.
 */
public class ReportPublisher implements ClusterEvents, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReportPublisher.class);

    private static final Duration SYNC_CHECK = Duration.ofMillis(50);
    private static final Duration RESIGN_PATIENCE = Duration.ofSeconds(5);

    private final ClusterInventory inventory;
    private final SchedulerClient scheduler;
    private final String cluster;
    private final String agentId;
    private final Clock clock;
    private final Duration coalescingWindow;
    private final Duration heartbeat;
    private final Duration fullReportInterval;
    private final Backoff backoff;
    private final BooleanSupplier leading;
    private final BooleanSupplier synced;
    private final ScheduledExecutorService sender;

    private boolean sendScheduled;
    private boolean fullRequired = true;
    private int failures;
    private long sequence;
    /** When the scheduler last accepted a report from this agent; null before the first. */
    private Instant lastDelivered;
    /** When the scheduler last accepted a FULL report from this agent; null before the first. */
    private Instant lastFullDelivered;
    /** The scheduler accepted a FULL report of this instance, and it has not resigned since. */
    private volatile boolean speaks;

    public ReportPublisher(ClusterInventory inventory, SchedulerClient scheduler, String cluster, String agentId,
            Clock clock, Duration coalescingWindow, Duration heartbeat, Duration fullReportInterval, Backoff backoff,
            BooleanSupplier leading, BooleanSupplier synced) {
        this.inventory = inventory;
        this.scheduler = scheduler;
        this.cluster = cluster;
        this.agentId = agentId;
        this.clock = clock;
        this.coalescingWindow = coalescingWindow;
        this.heartbeat = heartbeat;
        this.fullReportInterval = fullReportInterval;
        this.backoff = backoff;
        this.leading = leading;
        this.synced = synced;
        this.sender = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "agent-reports");
            thread.setDaemon(true);
            return thread;
        });
        long period = Math.max(1, Math.min(heartbeat.toMillis(), fullReportInterval.toMillis()) / 2);
        sender.scheduleWithFixedDelay(this::heartbeatIfQuiet, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * Sends an empty DELTA when nothing has been delivered for a heartbeat and nothing is on its way, and a FULL
     * report when the last one is older than the interval.
     */
    private synchronized void heartbeatIfQuiet() {
        if (lastDelivered == null || failures != 0) {
            return;
        }
        Instant now = clock.instant();
        if (lastFullDelivered != null && !now.isBefore(lastFullDelivered.plus(fullReportInterval))) {
            fullRequired = true;
            scheduleSend(Duration.ZERO);
        } else if (!now.isBefore(lastDelivered.plus(heartbeat))) {
            scheduleSend(Duration.ZERO);
        }
    }

    /** On becoming leader: the scheduler gets everything, whatever a previous leader sent. */
    public synchronized void sendFullReport() {
        fullRequired = true;
        failures = 0;
        scheduleSend(Duration.ZERO);
    }

    @Override
    public void nodeChanged(ClusterNode node) {
        inventory.nodeChanged(node);
        changed();
    }

    @Override
    public void nodeRemoved(String name) {
        inventory.nodeRemoved(name);
        changed();
    }

    @Override
    public void podChanged(ClusterPod pod) {
        inventory.podChanged(pod);
        changed();
    }

    @Override
    public void podRemoved(String namespace, String name) {
        inventory.podRemoved(namespace, name);
        changed();
    }

    @Override
    public void jobChanged(ClusterJob jobSet) {
        inventory.jobChanged(jobSet);
        changed();
    }

    @Override
    public void jobRemoved(JobKind kind, String namespace, String name) {
        inventory.jobRemoved(kind, namespace, name);
        changed();
    }

    private synchronized void changed() {
        // while a failure backs off, the retry (a FULL report) already covers this change
        if (failures == 0) {
            scheduleSend(coalescingWindow);
        }
    }

    private synchronized void scheduleSend(Duration delay) {
        if (!sendScheduled && !sender.isShutdown()) {
            sendScheduled = true;
            sender.schedule(this::send, delay.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Leadership and the caches are asked outside this publisher's lock: the cluster calls back into it
     * ({@link #changed}) while holding its own lock, so asking the cluster under ours would deadlock.
     */
    private void send() {
        boolean full;
        synchronized (this) {
            sendScheduled = false;
            full = fullRequired;
        }
        if (!leading.getAsBoolean()) {
            return;
        }
        if (full && !synced.getAsBoolean()) {
            // a FULL report before the watch caches fill would tell the scheduler pools vanished
            scheduleSend(SYNC_CHECK);
            return;
        }
        ReportContent content = full ? inventory.full() : inventory.takeDelta();
        if (!full && content.isEmpty() && !heartbeatDue()) {
            return;
        }
        AgentReport report = report(full, content);
        try {
            ReportAcceptance acceptance = scheduler.sendReport(report);
            synchronized (this) {
                failures = 0;
                lastDelivered = clock.instant();
                if (full) {
                    lastFullDelivered = lastDelivered;
                }
                fullRequired = acceptance == ReportAcceptance.FULL_REPORT_REQUIRED;
                if (full && !fullRequired && !speaks) {
                    speaks = true;
                    log.info("the scheduler hears this agent for cluster {}", cluster);
                }
                if (fullRequired) {
                    scheduleSend(Duration.ZERO);
                } else if (inventory.hasChanges()) {
                    scheduleSend(coalescingWindow);
                }
            }
        } catch (SchedulerUnavailableException e) {
            synchronized (this) {
                fullRequired = true;
                Duration delay = scheduler.retryDelay(backoff, failures++);
                if (e.unreachable()) {
                    log.debug("report {} not delivered ({}); retrying in {} ms", report.sequence(), e.getMessage(),
                            delay.toMillis());
                } else {
                    log.warn("report {} not delivered ({}); retrying in {} ms", report.sequence(), e.getMessage(),
                            delay.toMillis());
                }
                scheduleSend(delay);
            }
        }
    }

    /** Whether the scheduler takes this instance as its cluster's voice: commands are taken only then. */
    public boolean speaks() {
        return speaks;
    }

    /**
     * Gives up speaking for the cluster: after the report in flight, if any, an empty DELTA saying this agent no
     * longer leads. One try, waited for a few seconds: a scheduler that does not get it hears the next agent once
     * this one's silence has lasted {@code platform.agents.agent-liveness}.
     */
    public void resign() {
        if (sender.isShutdown()) {
            return;
        }
        try {
            sender.submit(this::sendResignation).get(RESIGN_PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            log.warn("could not tell the scheduler that this agent stopped leading cluster {}: {}", cluster,
                    e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void sendResignation() {
        AgentReport report;
        synchronized (this) {
            if (lastDelivered == null) {
                return;
            }
            speaks = false;
            report = new AgentReport(cluster, agentId, false, ++sequence, clock.instant(), ReportKind.DELTA, null,
                    null, null, null);
        }
        try {
            scheduler.sendReport(report);
            log.info("told the scheduler that this agent no longer leads cluster {}", cluster);
        } catch (SchedulerUnavailableException e) {
            log.warn("could not tell the scheduler that this agent stopped leading cluster {}: {}", cluster,
                    e.getMessage());
        }
    }

    private synchronized boolean heartbeatDue() {
        return lastDelivered == null || !clock.instant().isBefore(lastDelivered.plus(heartbeat));
    }

    private synchronized AgentReport report(boolean full, ReportContent content) {
        return new AgentReport(cluster, agentId, true, ++sequence, clock.instant(),
                full ? ReportKind.FULL : ReportKind.DELTA,
                content.nodePools(), content.removedNodePools(), content.workloads(), content.submissions());
    }

    @Override
    public void close() {
        sender.shutdownNow();
    }
}
