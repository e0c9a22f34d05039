package dev.platform.scheduler.testsupport;

import dev.platform.agent.Agent;
import dev.platform.agent.AgentSettings;
import dev.platform.agent.leadership.SoleReplica;
import dev.platform.agent.simulation.SimulatedCluster;
import dev.platform.agent.simulation.SimulatedClusterLayout;

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
        return start(port, api, Clock.systemUTC());
    }

    /**
     * As {@link #start(int, PlatformClient)}, cluster and agent on {@code clock}: a test that moves the clock
     * moves the pods' runtimes with it.
     */
    public static SimulatedAgent start(int port, PlatformClient api, Clock clock) {
        SimulatedCluster cluster = new SimulatedCluster(SimulatedClusterLayout.tpuDemo(), clock);
        Agent agent = new Agent(AgentSettings.of(URI.create("http://127.0.0.1:" + port), "sim",
                PlatformIntegrationTest.AGENT_TOKEN, "sim-agent"), cluster, new SoleReplica(), clock);
        agent.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            PlatformClient.Response pools = api.get("/api/v1/clusters/sim/nodepools");
            return pools.status() == 200 && pools.json().get("items").size() == 5;
        });
        return new SimulatedAgent(cluster, agent);
    }

    public SimulatedCluster cluster() {
        return cluster;
    }

    @Override
    public void close() {
        agent.close();
    }
}
