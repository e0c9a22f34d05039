package dev.platform.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.platform.agent.cluster.KubernetesCluster;
import dev.platform.agent.leadership.SoleReplica;
import dev.platform.agent.testing.FakeScheduler;
import dev.platform.agent.testing.MockKubernetes;
import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.CommandPayload;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Kubernetes agent's command rate: {@code platform.benchmark.commands} (default 1,000) STARTs of one-pod JobSets,
 * each its own workload, queued at once on a fake scheduler and executed through client-java against fabric8's mock
 * API server (one JobSet read and one create each), results posted in batches. Prints commands per second; asserts
 * only that every START succeeded. A benchmark: surefire runs it only when named
 * ({@code -Dtest=KubernetesCommandRateBenchmark}).
 */
class KubernetesCommandRateBenchmark {

    private static final int COMMANDS = Integer.getInteger("platform.benchmark.commands", 1_000);

    @Test
    void startsPerSecondAgainstTheMockApiServer() throws Exception {
        try (MockKubernetes kube = new MockKubernetes(); FakeScheduler scheduler = new FakeScheduler();
             Agent agent = new Agent(AgentSettings.of(scheduler.url(), "rate", FakeScheduler.TOKEN, "agent-0"),
                     new KubernetesCluster(kube.apiClient(), kube.apiClient(), Agent.json()), new SoleReplica(),
                     Clock.systemUTC())) {
            agent.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> !scheduler.reports().isEmpty());

            long started = System.nanoTime();
            for (int i = 1; i <= COMMANDS; i++) {
                scheduler.enqueue(start(i));
            }
            await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> scheduler.results().size() >= COMMANDS);
            double seconds = (System.nanoTime() - started) / 1e9;

            assertThat(scheduler.results()).extracting(CommandResult::status).containsOnly(CommandStatus.SUCCEEDED);
            List<Integer> batches = scheduler.resultBatches();
            System.out.printf("Kubernetes agent against the mock API server: %d STARTs in %.2f s = %.0f commands/s,"
                            + " results in %d batches (largest %d)%n", COMMANDS, seconds, COMMANDS / seconds,
                    batches.size(), batches.stream().mapToInt(Integer::intValue).max().orElse(0));
        }
    }

    private static AgentCommand start(long id) {
        String name = "rate-" + id;
        ObjectNode manifest = Agent.json().createObjectNode().put("apiVersion", "jobset.x-k8s.io/v1alpha2")
                .put("kind", "JobSet");
        manifest.putObject("metadata").put("name", name).put("namespace", "default");
        manifest.putObject("spec").putArray("replicatedJobs").addObject().put("name", "main").put("replicas", 1)
                .putObject("template").putObject("spec").put("parallelism", 1).putObject("template").putObject("spec")
                .putArray("containers").addObject().put("name", "main").put("image", "busybox");
        return new AgentCommand(id, CommandType.START, "wl-" + id, "default", name, null,
                new CommandPayload(manifest, null, List.of("slice-a"), Map.of(), "cpu"));
    }
}
