package dev.platform.scheduler.cluster;

import dev.platform.api.agent.AgentProtocol;
import dev.platform.scheduler.testsupport.SimulatedAgent;
import dev.platform.scheduler.testsupport.SimulatedClusterTest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A JobSet with the platform's labels running in a cluster for a workload the platform does not know (a database
 * restored from an older backup, a JobSet copied by hand): the agent's FULL report shows it, and under the default
 * policy (platform.agents.stray-jobsets=Suspend) it is suspended, its pods gone, the JobSet kept, and counted.
 */
class StrayJobSetTest extends SimulatedClusterTest {

    @Autowired
    MeterRegistry registry;

    @Test
    void aRunningJobSetOfAWorkloadThePlatformDoesNotKnowIsSuspendedAndKept() {
        agent.close();
        agent = SimulatedAgent.start(port, api, Duration.ofSeconds(1));
        cluster = agent.cluster();
        double before = strayCount();
        UUID uid = UUID.randomUUID();

        cluster.createJobSet(JsonMapper.builder().build().readTree("""
                {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
                 "metadata": {"name": "stray", "namespace": "team-a",
                              "labels": {"%s": "true", "%s": "%s"},
                              "annotations": {"platform.dev/simulated-runtime": "1h"}},
                 "spec": {"replicatedJobs": [{"name": "workers", "replicas": 1,
                   "template": {"spec": {"parallelism": 2, "completions": 2,
                     "template": {"spec": {"containers": [{"name": "main", "image": "busybox"}]}}}}}]}}
                """.formatted(AgentProtocol.MANAGED_LABEL, AgentProtocol.WORKLOAD_UID_LABEL, uid)));
        assertThat(cluster.podsOf(uid.toString())).isNotEmpty();

        await().atMost(Duration.ofSeconds(20)).until(() -> cluster.jobSet("team-a", "stray")
                .map(j -> j.suspended()).orElse(false));
        assertThat(cluster.podsOf(uid.toString())).as("its pods evicted").isEmpty();
        await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.sql(
                "SELECT type || '/' || state FROM agent_command WHERE workload_uid = ?").param(uid)
                .query(String.class).list(), commands -> commands.equals(List.of("STOP/Succeeded")));
        assertThat(strayCount()).isEqualTo(before + 1);
    }

    private double strayCount() {
        Counter counter = registry.find("platform.jobsets.stray").tags("cluster", "sim", "action", "Suspended")
                .counter();
        return counter == null ? 0 : counter.count();
    }
}
