package dev.platform.agent.testing;

import dev.platform.agent.Agent;
import dev.platform.agent.cluster.KubernetesCluster;
import dev.platform.agent.leadership.Leadership;
import dev.platform.agent.leadership.SoleReplica;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.time.Clock;

/**
 * One agent, sole replica, on client-java against fabric8's mock API server ({@link #kube}), reporting to and
 * commanded by a {@link FakeScheduler} ({@link #scheduler}): a test fills the cluster, then starts the agent.
 */
public final class MockClusterAgent implements AutoCloseable {

    public final MockKubernetes kube;
    public final FakeScheduler scheduler;
    private Agent agent;

    public MockClusterAgent() throws IOException {
        kube = new MockKubernetes();
        scheduler = new FakeScheduler();
    }

    /** Starts the agent, its metrics in {@code registry}. */
    public Agent start(MeterRegistry registry) {
        return start(registry, new SoleReplica());
    }

    /** Starts the agent under {@code leadership}, its metrics in {@code registry}. */
    public Agent start(MeterRegistry registry, Leadership leadership) {
        agent = new Agent(scheduler.settings("agent-1"),
                new KubernetesCluster(kube.apiClient(), kube.apiClient(), Agent.json()), leadership,
                Clock.systemUTC(), registry);
        agent.start();
        return agent;
    }

    @Override
    public void close() {
        if (agent != null) {
            agent.close();
        }
        scheduler.close();
        kube.close();
    }
}
