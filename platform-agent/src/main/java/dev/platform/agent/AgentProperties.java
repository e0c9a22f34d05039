package dev.platform.agent;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the agent ({@code platform.agent.*}). Lease settings matter only in kubernetes mode,
 * where several replicas elect a leader.
 *
 * @param schedulerUrl       base URL of the scheduler
 * @param clusterName        this cluster's name in the scheduler
 * @param token              the bearer token the agent presents (the scheduler's
 *                           platform.agents.tokens.&lt;cluster&gt;)
 * @param mode               kubernetes (client-java against the API server) or simulated (an in-memory
 *                           TPU cluster with fault injection on this port)
 * @param kubeconfig         path of a kubeconfig; unset means the in-cluster service account, else
 *                           ~/.kube/config
 * @param agentId            this replica's name in reports, results and the Lease; unset means the host
 *                           name (the pod name)
 * @param leaseName          name of the leader-election Lease
 * @param leaseNamespace     namespace of the Lease
 * @param leaseDuration      lease duration, whole seconds (the Lease stores seconds); renewal deadline
 *                           and retry period follow from it
 * @param coalescingWindow   how long a change waits for the changes that follow it before a report
 * @param commandWaitSeconds how long one command poll may be held open by the scheduler
 * @param commandWorkers     how many workloads' commands run at once (each workload's one after another)
 * @param heartbeat          the longest silence: a quiet cluster sends an empty report this often; keep it
 *                           well below the scheduler's platform.agents.staleness
 * @param fullReportInterval how often a FULL report (the whole inventory, every platform JobSet) is sent
 *                           unasked: the scheduler notices a JobSet gone from the cluster, or one it does
 *                           not know, on a FULL report only
 * @param simulationDataDir  simulated mode: the directory where the simulated cluster keeps its JobSets, pods and
 *                           node pool health (file simulated-cluster-&lt;cluster&gt;.json), so a restarted agent
 *                           continues where it stopped; unset, the cluster lives in memory and starts empty
 */
@ConfigurationProperties("platform.agent")
public record AgentProperties(
        @DefaultValue("http://localhost:8080") URI schedulerUrl,
        @DefaultValue("default") String clusterName,
        String token,
        @DefaultValue("kubernetes") Mode mode,
        String kubeconfig,
        String agentId,
        @DefaultValue("default") String leaseNamespace,
        @DefaultValue("platform-agent") String leaseName,
        @DefaultValue("15s") Duration leaseDuration,
        @DefaultValue("100ms") Duration coalescingWindow,
        @DefaultValue("30") int commandWaitSeconds,
        @DefaultValue("64") int commandWorkers,
        @DefaultValue("10s") Duration heartbeat,
        @DefaultValue("60s") Duration fullReportInterval,
        Path simulationDataDir) {

    public enum Mode {
        KUBERNETES,
        SIMULATED
    }
}
