package dev.platform.agent;

import dev.platform.agent.cluster.Cluster;
import dev.platform.agent.cluster.KubernetesCluster;
import dev.platform.agent.command.EvictionPolicy;
import dev.platform.agent.leadership.LeaseLeadership;
import dev.platform.agent.leadership.Leadership;
import dev.platform.agent.leadership.SoleReplica;
import dev.platform.agent.scheduler.Backoff;
import dev.platform.agent.simulation.SimulatedCluster;
import dev.platform.agent.simulation.SimulatedClusterFile;
import dev.platform.agent.simulation.SimulatedClusterLayout;
import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import java.io.FileReader;
import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AgentProperties.class)
class AgentConfiguration {

    private static final Logger log = LoggerFactory.getLogger(AgentConfiguration.class);

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean(destroyMethod = "close")
    Cluster cluster(AgentProperties properties, Clock clock) throws IOException {
        if (properties.mode() == AgentProperties.Mode.SIMULATED) {
            return simulatedCluster(properties, clock);
        }
        ApiClient commands = apiClient(properties);
        commands.setReadTimeout((int) TimeUnit.SECONDS.toMillis(30));
        ApiClient watches = apiClient(properties);
        watches.setReadTimeout(0);
        return new KubernetesCluster(commands, watches, Agent.json());
    }

    private static SimulatedCluster simulatedCluster(AgentProperties properties, Clock clock) {
        if (properties.simulationDataDir() == null) {
            log.info("the simulated cluster lives in memory: it starts empty and is forgotten at exit"
                    + " (platform.agent.simulation-data-dir keeps it)");
            return new SimulatedCluster(SimulatedClusterLayout.tpuDemo(), clock);
        }
        SimulatedClusterFile file = new SimulatedClusterFile(properties.simulationDataDir(), properties.clusterName());
        log.info("the simulated cluster keeps its state in {}", file.path());
        return new SimulatedCluster(SimulatedClusterLayout.tpuDemo(), clock, file);
    }

    @Bean(destroyMethod = "close")
    Leadership leadership(AgentProperties properties) throws IOException {
        if (properties.mode() == AgentProperties.Mode.SIMULATED) {
            return new SoleReplica();
        }
        return new LeaseLeadership(apiClient(properties), properties.leaseNamespace(), properties.leaseName(),
                agentId(properties), properties.leaseDuration());
    }

    @Bean(destroyMethod = "close")
    Agent agent(AgentProperties properties, Cluster cluster, Leadership leadership, Clock clock, MeterRegistry registry) {
        AgentSettings settings = new AgentSettings(properties.schedulerUrl(), properties.clusterName(), properties.token(),
                agentId(properties), properties.coalescingWindow(), properties.commandWaitSeconds(),
                Backoff.SCHEDULER, EvictionPolicy.DEFAULT, properties.heartbeat(), properties.commandWorkers(),
                properties.fullReportInterval());
        return new Agent(settings, cluster, leadership, clock, registry);
    }

    /**
     * The agent reports and takes commands only once the process is fully up (its web server listening): a second
     * agent started by mistake, whose port is taken, fails before it has said anything to the scheduler.
     */
    @Bean
    ApplicationListener<ApplicationReadyEvent> startAgentWhenReady(Agent agent) {
        return ready -> agent.start();
    }

    static ApiClient apiClient(AgentProperties properties) throws IOException {
        if (properties.kubeconfig() == null || properties.kubeconfig().isBlank()) {
            return ClientBuilder.standard().build();
        }
        try (Reader reader = new FileReader(properties.kubeconfig())) {
            return ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(reader)).build();
        }
    }

    /** Pod name in a cluster (HOSTNAME), so the Lease shows which replica leads. */
    private static String agentId(AgentProperties properties) {
        if (properties.agentId() != null && !properties.agentId().isBlank()) {
            return properties.agentId();
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "agent-" + UUID.randomUUID();
        }
    }
}
