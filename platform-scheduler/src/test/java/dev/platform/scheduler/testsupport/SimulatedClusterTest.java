package dev.platform.scheduler.testsupport;

import dev.platform.agent.simulation.SimulatedCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Base of the tests that need a connected cluster: the real agent on a simulated TPU cluster {@code sim}. */
public abstract class SimulatedClusterTest extends PlatformApplicationTest {

    protected SimulatedAgent agent;
    protected SimulatedCluster cluster;

    @BeforeEach
    void startAgent() {
        agent = SimulatedAgent.start(port, api);
        cluster = agent.cluster();
    }

    @AfterEach
    void stopAgent() {
        agent.close();
    }
}
