package dev.platform.scheduler.cluster;

import dev.platform.api.agent.CommandType;
import dev.platform.scheduler.workload.WorkloadService.WorkloadCancelled;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * A cancelled workload's JobSet goes from the cluster it ran in: a DELETE command, in the cancelling
 * transaction (the listener runs in it). A workload placed nowhere now may have left a suspended JobSet
 * where its last command went (an evicted one).
 */
@Component
class CancelledWorkloads {

    private static final Logger log = LoggerFactory.getLogger(CancelledWorkloads.class);

    private final AgentCommandStore commands;

    CancelledWorkloads(AgentCommandStore commands) {
        this.commands = commands;
    }

    @EventListener
    void onCancelled(WorkloadCancelled cancelled) {
        String cluster = cancelled.cluster() != null ? cancelled.cluster()
                : commands.lastCluster(cancelled.uid()).orElse(null);
        if (cluster == null) {
            return;
        }
        try {
            commands.enqueue(cluster, CommandType.DELETE, cancelled.uid(), cancelled.namespace(), cancelled.name(),
                    null, null);
        } catch (AgentCommandStore.UnknownClusterException e) {
            log.info("cancelled {}/{}: its cluster {} is no longer registered, nothing to delete there",
                    cancelled.namespace(), cancelled.name(), cluster);
        }
    }
}
