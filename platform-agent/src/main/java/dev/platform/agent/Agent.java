package dev.platform.agent;

import dev.platform.agent.cluster.Cluster;
import dev.platform.agent.command.CommandExecutor;
import dev.platform.agent.command.CommandPoller;
import dev.platform.agent.command.UnadmittedJobs;
import dev.platform.agent.events.DecisionEvents;
import dev.platform.agent.events.EventRecorder;
import dev.platform.agent.cluster.ClusterEventsTee;
import dev.platform.agent.leadership.Leadership;
import dev.platform.agent.provisioning.ProvisioningSync;
import dev.platform.agent.report.ClusterInventory;
import dev.platform.agent.report.ReportPublisher;
import dev.platform.agent.scheduler.SchedulerClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The agent loop, usable without Spring: watch the cluster into the inventory; while leading,
 * push reports and execute long-polled commands. The Boot application wires one of these; the
 * scheduler can run one in-process on a {@link dev.platform.agent.simulation.SimulatedCluster}.
 */
public class Agent implements AutoCloseable {

    private final Cluster cluster;
    private static final Logger log = LoggerFactory.getLogger(Agent.class);

    private final Leadership leadership;
    private final String clusterName;
    private final ReportPublisher reports;
    private final CommandPoller commands;
    private final UnadmittedJobs unadmitted;
    private final DecisionEvents decisionEvents;
    private final ProvisioningSync provisioning;
    private final String instance;

    /** An agent whose metrics go to Micrometer's global registry (in-process use, tests). */
    public Agent(AgentSettings settings, Cluster cluster, Leadership leadership, Clock clock) {
        this(settings, cluster, leadership, clock, Metrics.globalRegistry);
    }

    public Agent(AgentSettings settings, Cluster cluster, Leadership leadership, Clock clock, MeterRegistry registry) {
        this.cluster = cluster;
        this.leadership = leadership;
        this.clusterName = settings.cluster();
        AgentMetrics metrics = new AgentMetrics(registry);
        metrics.watch(leadership::isLeader, cluster::hasSynced);
        this.instance = settings.agentId() + "#" + HexFormat.of().toHexDigits(new SecureRandom().nextInt());
        SchedulerClient scheduler = new SchedulerClient(settings.schedulerUrl(), settings.cluster(), settings.token(),
                instance, json(), metrics);
        this.reports = new ReportPublisher(new ClusterInventory(), scheduler, settings.cluster(), settings.agentId(),
                clock, settings.coalescingWindow(), settings.heartbeat(), settings.fullReportInterval(),
                settings.schedulerBackoff(), leadership::isLeader, cluster::hasSynced);
        this.unadmitted = new UnadmittedJobs(cluster, clock, settings.evictionPolicy(), leadership::isLeader, metrics,
                registry);
        this.decisionEvents = new DecisionEvents(scheduler,
                new EventRecorder(cluster, "platform-agent", settings.agentId(), registry), leadership::isLeader, clock);
        this.provisioning = new ProvisioningSync(scheduler, cluster, clock, settings.heartbeat(),
                () -> cluster.hasSynced() && reports.speaks());
        CommandExecutor executor = new CommandExecutor(cluster, clock, settings.evictionPolicy(), settings.agentId(),
                metrics, provisioning::podAnnotations);
        // commands only once the scheduler hears this instance: another one may speak for the cluster
        this.commands = new CommandPoller(scheduler, executor, settings.schedulerBackoff(), settings.commandWaitSeconds(),
                settings.commandWorkers(), clock, () -> cluster.hasSynced() && reports.speaks());
    }

    /** The protocol's JSON: tolerant of fields a newer scheduler adds. */
    public static JsonMapper json() {
        return JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
    }

    /** Watches the cluster and stands for leadership; call it once the process is fully up. */
    public void start() {
        log.info("agent instance {} starting for cluster {}", instance, clusterName);
        cluster.watch(new ClusterEventsTee(reports, List.of(unadmitted, decisionEvents)));
        decisionEvents.start();
        leadership.start(() -> {
            decisionEvents.lead();
            unadmitted.lead();
            reports.sendFullReport();
            commands.start();
            provisioning.start();
        }, () -> {
            provisioning.stop();
            commands.stop();
            reports.resign();
        });
    }

    /** This process in the scheduler's eyes ({@link dev.platform.api.agent.AgentProtocol#INSTANCE_HEADER}). */
    public String instance() {
        return instance;
    }

    public boolean isLeader() {
        return leadership.isLeader();
    }

    public Cluster cluster() {
        return cluster;
    }

    @Override
    public void close() {
        provisioning.close();
        commands.close();
        unadmitted.close();
        decisionEvents.close();
        leadership.close();
        reports.close();
        cluster.close();
    }
}
