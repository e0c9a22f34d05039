package dev.platform.scheduler.cluster;

import dev.platform.api.agent.CommandType;
import dev.platform.api.agent.WorkloadStatusReport;
import dev.platform.scheduler.cluster.AgentsProperties.StrayJobSetPolicy;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * JobSets the platform manages (they carry its labels) that a cluster's FULL report shows active, pods pending or
 * running, while the platform does not run them: their workload is unknown to it (a database restored from an older
 * backup, a JobSet copied by hand) or Finished or Failed (a DELETE that never ran). They use chips the platform
 * counts as free. Each is logged (WARN), counted in {@code platform.jobsets.stray} and, under
 * {@code platform.agents.stray-jobsets}, suspended (the default) or deleted by a command to its agent, queued in the
 * report's transaction. A command for it under way, or carried out within the grace, leaves it alone for now.
 */
@Component
class StrayJobSets {

    private static final Logger log = LoggerFactory.getLogger(StrayJobSets.class);

    private final ClusterWorkloads clusterWorkloads;
    private final AgentCommandStore commands;
    private final MeterRegistry registry;
    private final AgentsProperties agents;

    StrayJobSets(ClusterWorkloads clusterWorkloads, AgentCommandStore commands, MeterRegistry registry,
                 AgentsProperties agents) {
        this.clusterWorkloads = clusterWorkloads;
        this.commands = commands;
        this.registry = registry;
        this.agents = agents;
    }

    /** Handles the strays among {@code active}, the JobSets with pods pending or running that a FULL report lists. */
    void handle(String cluster, Map<UUID, WorkloadStatusReport> active, Instant now) {
        List<UUID> strays = clusterWorkloads.strays(cluster, active.keySet(), now.minus(agents.missingJobsetGrace()));
        StrayJobSetPolicy policy = agents.strayJobsets();
        for (UUID uid : strays) {
            WorkloadStatusReport status = active.get(uid);
            String action = switch (policy) {
                case Report -> "Reported";
                case Suspend -> "Suspended";
                case Delete -> "Deleted";
            };
            log.warn("cluster {} runs JobSet {}/{} (workload {}, {}) that the platform does not run: {} ({}={})",
                    cluster, status.namespace(), status.jobSetName(), uid, status.phase(), action.toLowerCase(),
                    "platform.agents.stray-jobsets", policy);
            if (policy != StrayJobSetPolicy.Report && status.jobSetName() != null) {
                commands.enqueue(cluster, policy == StrayJobSetPolicy.Suspend ? CommandType.STOP : CommandType.DELETE,
                        uid, status.namespace(), status.jobSetName(), null, null);
            }
            Counter.builder("platform.jobsets.stray")
                    .description("Active JobSets of the platform's that it does not run, by cluster and what was done")
                    .tags("cluster", cluster, "action", action).register(registry).increment();
        }
    }
}
