package dev.platform.scheduler.testsupport;

import dev.platform.agent.Agent;
import dev.platform.agent.AgentSettings;
import dev.platform.agent.leadership.SoleReplica;
import dev.platform.agent.simulation.SimulatedCluster;
import dev.platform.agent.simulation.SimulatedClusterLayout;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;

import static org.awaitility.Awaitility.await;

/**
 * The real agent (platform-agent) in-process on a simulated TPU cluster {@code sim} (four 4x4 v6e
 * pools and a CPU pool), reporting to the test application over HTTP.
 */
public final class SimulatedAgent implements AutoCloseable {

    private final SimulatedCluster cluster;
    private final Agent agent;

    private SimulatedAgent(SimulatedCluster cluster, Agent agent) {
        this.cluster = cluster;
        this.agent = agent;
    }

    /** Starts the agent and waits until the scheduler shows the cluster's five pools. */
    public static SimulatedAgent start(int port, PlatformClient api) {
        return start(port, api, Clock.systemUTC(), Metrics.globalRegistry);
    }

    /** The same, with the agent's metrics in {@code registry}. */
    public static SimulatedAgent start(int port, PlatformClient api, MeterRegistry registry) {
        return start(port, api, Clock.systemUTC(), registry);
    }

    /**
     * As {@link #start(int, PlatformClient)}, cluster and agent on {@code clock}: a test that moves the clock
     * moves the pods' runtimes with it.
     */
    public static SimulatedAgent start(int port, PlatformClient api, Clock clock) {
        return start(port, api, clock, Metrics.globalRegistry);
    }

    /** As {@link #start(int, PlatformClient)}, with FULL reports every {@code fullReportInterval}. */
    public static SimulatedAgent start(int port, PlatformClient api, Duration fullReportInterval) {
        return start(port, api, Clock.systemUTC(), Metrics.globalRegistry, fullReportInterval);
    }

    private static SimulatedAgent start(int port, PlatformClient api, Clock clock, MeterRegistry registry) {
        return start(port, api, clock, registry, AgentSettings.DEFAULT_FULL_REPORT_INTERVAL);
    }

    private static SimulatedAgent start(int port, PlatformClient api, Clock clock, MeterRegistry registry,
                                        Duration fullReportInterval) {
        SimulatedAgent agent = startUnchecked(port, "sim", TestIdentity.agentToken("sim"), clock, registry,
                fullReportInterval);
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            PlatformClient.Response pools = api.get("/api/v1/clusters/sim/nodepools");
            return pools.status() == 200 && pools.json().get("items").size() == 5;
        });
        return agent;
    }

    /** Starts an agent for {@code clusterName} presenting {@code token}, without waiting for the scheduler to accept it. */
    public static SimulatedAgent startUnchecked(int port, String clusterName, String token) {
        return startUnchecked(port, clusterName, token, Clock.systemUTC(), Metrics.globalRegistry,
                AgentSettings.DEFAULT_FULL_REPORT_INTERVAL);
    }

    private static SimulatedAgent startUnchecked(int port, String clusterName, String token, Clock clock,
                                                 MeterRegistry registry, Duration fullReportInterval) {
        SimulatedCluster cluster = new SimulatedCluster(SimulatedClusterLayout.tpuDemo(), clock);
        Agent agent = new Agent(AgentSettings.of(URI.create("http://127.0.0.1:" + port), clusterName, token,
                clusterName + "-agent").withFullReportInterval(fullReportInterval), cluster, new SoleReplica(), clock, registry);
        agent.start();
        return new SimulatedAgent(cluster, agent);
    }

    /** The agent process as the scheduler knows it. */
    public String instance() {
        return agent.instance();
    }

    public SimulatedCluster cluster() {
        return cluster;
    }

    @Override
    public void close() {
        agent.close();
    }
}
