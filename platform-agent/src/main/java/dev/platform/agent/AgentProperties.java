package dev.platform.agent;

import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code platform.agent.*}. {@code kubeconfig} unset means in-cluster configuration (service
 * account), falling back to ~/.kube/config outside a cluster. Lease settings matter only in
 * kubernetes mode, where several replicas elect a leader. {@code heartbeat} must stay well below
 * the scheduler's {@code platform.agents.staleness}.
 */
@ConfigurationProperties("platform.agent")
public record AgentProperties(
        URI schedulerUrl,
        String clusterName,
        String token,
        @DefaultValue("kubernetes") Mode mode,
        String kubeconfig,
        String agentId,
        @DefaultValue("default") String leaseNamespace,
        @DefaultValue("platform-agent") String leaseName,
        @DefaultValue("15s") Duration leaseDuration,
        @DefaultValue("100ms") Duration coalescingWindow,
        @DefaultValue("30") int commandWaitSeconds,
        @DefaultValue("10s") Duration heartbeat) {

    public enum Mode {
        KUBERNETES,
        SIMULATED
    }
}
