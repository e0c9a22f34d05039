package dev.platform.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.platform.agent.testing.FakeScheduler;
import dev.platform.agent.testing.HandedLeadership;
import dev.platform.agent.testing.MockClusterAgent;
import dev.platform.agent.testing.MockKubernetes;
import dev.platform.api.agent.AgentDecision;
import dev.platform.api.agent.AgentProtocol;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The platform's decisions as core v1 Events on the JobSets in the cluster (fabric8's mock API server), read from the
 * scheduler's decision feed: the right reason, type and message on the right JobSet, a repeated decision aggregated
 * into its Event (count and last time), nothing on a JobSet of the same name that is not the decision's, nothing
 * decided before the agent began to lead, and everything decided from the moment it leads.
 */
class DecisionEventsTest {

    private static final Duration PATIENCE = Duration.ofSeconds(15);

    private final JsonMapper json = Agent.json();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MockClusterAgent cluster;
    private final MockKubernetes kube;
    private final FakeScheduler scheduler;

    DecisionEventsTest() throws IOException {
        cluster = new MockClusterAgent();
        kube = cluster.kube;
        scheduler = cluster.scheduler;
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void decisionsBecomeEventsOnTheirJobSetsAndARepeatedOneIsAggregated() {
        String train = createSuspended("train").getMetadata().getUid();
        String impostor = createSuspended("impostor").getMetadata().getUid();
        Instant queued = Instant.parse("2026-01-01T10:00:00Z");
        scheduler.decide(decision(1, "train", train, "Normal", "Pending", "decided before the agent led", queued));

        cluster.start(registry);
        await().atMost(PATIENCE).until(() -> scheduler.decisionQueries().contains("after=1"));

        String waiting = "insufficient unused quota for google.com/tpu in flavor tpu-v6e-slice, 32 more needed"
                + " (WaitingForQuota); ClusterQueue tpu-training-cq, position 0 in it";
        scheduler.decide(decision(2, "train", train, "Normal", "Pending", waiting, queued.plusSeconds(1)));
        scheduler.decide(decision(3, "train", train, "Normal", "Pending", waiting, queued.plusSeconds(30)));
        scheduler.decide(decision(4, "impostor", "another-jobset-uid", "Warning", "Preempted", "not this one",
                queued.plusSeconds(31)));
        scheduler.decide(decision(5, "absent", "absent-uid", "Normal", "Admitted", "not in the cluster",
                queued.plusSeconds(32)));
        scheduler.decide(decision(6, "train", train, "Normal", "Admitted",
                "Admitted by ClusterQueue tpu-training-cq: slice (8 pod(s)) on flavor google.com/tpu=tpu-v6e-slice,"
                        + " node pools pool-0, pool-1", queued.plusSeconds(60)));

        List<Event> events = await().atMost(PATIENCE).until(this::events, e -> e.size() == 2
                && e.stream().anyMatch(x -> "Admitted".equals(x.getReason())));

        // submitted through the platform: admitted before its START creates the JobSet, which the Event waits for
        String viaRest = "9c1e0000-0000-4000-8000-0000000000aa";
        scheduler.decide(new AgentDecision(7, queued.plusSeconds(90), viaRest, "default", "via-rest", null, "Normal",
                "Admitted", "Admitted by ClusterQueue tpu-training-cq"));
        await().atMost(PATIENCE).until(() -> scheduler.decisionQueries().contains("after=7"));
        createStartedByPlatform("via-rest", viaRest);
        await().atMost(PATIENCE).until(() -> events().stream().anyMatch(e -> "via-rest".equals(
                e.getInvolvedObject().getName()) && "Admitted".equals(e.getReason())));
        assertThat(events).extracting(Event::getReason, Event::getType, Event::getMessage, Event::getCount,
                        Event::getFirstTimestamp, Event::getLastTimestamp)
                .containsExactlyInAnyOrder(
                        tuple("Pending", "Normal", waiting, 2, "2026-01-01T10:00:01Z", "2026-01-01T10:00:30Z"),
                        tuple("Admitted", "Normal", "Admitted by ClusterQueue tpu-training-cq: slice (8 pod(s)) on flavor"
                                        + " google.com/tpu=tpu-v6e-slice, node pools pool-0, pool-1", 1,
                                "2026-01-01T10:01:00Z", "2026-01-01T10:01:00Z"));
        assertThat(events).allSatisfy(e -> {
            assertThat(e.getInvolvedObject().getKind()).isEqualTo("JobSet");
            assertThat(e.getInvolvedObject().getApiVersion()).isEqualTo("jobset.x-k8s.io/v1alpha2");
            assertThat(e.getInvolvedObject().getName()).isEqualTo("train");
            assertThat(e.getInvolvedObject().getUid()).isEqualTo(train);
            assertThat(e.getSource().getComponent()).isEqualTo("platform-agent");
        });
        assertThat(impostor).isNotEqualTo("another-jobset-uid");
        assertThat(registry.get("platform.agent.events").tag("outcome", "aggregated").counter().count()).isEqualTo(1);
    }

    @Test
    void aDecisionAboutAJobIsAnEventOnThatJobNotOnAJobSetOfTheSameName() {
        createSuspended("etl");
        String job = kube.client().batch().v1().jobs().inNamespace("default").resource(new JobBuilder()
                .withNewMetadata().withName("etl").withNamespace("default")
                .addToLabels(AgentProtocol.QUEUE_NAME_LABEL, "default-queue").endMetadata()
                .withNewSpec().withSuspend(true).withNewTemplate().withNewSpec().addNewContainer().withName("main")
                .withImage("etl").endContainer().withRestartPolicy("Never").endSpec().endTemplate().endSpec()
                .build()).create().getMetadata().getUid();
        cluster.start(registry);
        await().atMost(PATIENCE).until(() -> scheduler.decisionQueries().contains("after=0"));

        scheduler.decide(decision(1, "etl", job, "Normal", "Pending", "waits for quota",
                Instant.parse("2026-01-01T10:00:00Z")));

        Event pending = await().atMost(PATIENCE).until(this::events, e -> !e.isEmpty()).get(0);
        assertThat(pending.getInvolvedObject().getKind()).isEqualTo("Job");
        assertThat(pending.getInvolvedObject().getApiVersion()).isEqualTo("batch/v1");
        assertThat(pending.getInvolvedObject().getUid()).isEqualTo(job);
        assertThat(pending.getMessage()).isEqualTo("waits for quota");
    }

    @Test
    void aDecisionMadeTheMomentTheAgentBeginsToLeadIsWritten() {
        String train = createSuspended("train").getMetadata().getUid();
        HandedLeadership leadership = new HandedLeadership();
        cluster.start(registry, leadership);

        // what the leader submits is decided at once; the feed's own turn may be two seconds away
        leadership.lead();
        scheduler.decide(decision(1, "train", train, "Normal", "Pending", "waits for quota",
                Instant.parse("2026-01-01T10:00:00Z")));

        Event pending = await().atMost(PATIENCE).until(this::events, e -> !e.isEmpty()).get(0);
        assertThat(pending.getInvolvedObject().getUid()).isEqualTo(train);
        assertThat(pending.getMessage()).isEqualTo("waits for quota");
    }

    /** A JobSet as the platform's START creates it: its labels name the workload. */
    private void createStartedByPlatform(String name, String workloadUid) {
        ObjectNode manifest = json.createObjectNode();
        manifest.put("apiVersion", "jobset.x-k8s.io/v1alpha2");
        manifest.put("kind", "JobSet");
        manifest.putObject("metadata").put("name", name).put("namespace", "default").putObject("labels")
                .put(AgentProtocol.MANAGED_LABEL, "true").put(AgentProtocol.WORKLOAD_UID_LABEL, workloadUid);
        manifest.putObject("spec").put("suspend", false).putArray("replicatedJobs").addObject().put("name", "worker");
        kube.client().resource(kube.client().getKubernetesSerialization()
                        .unmarshal(json.writeValueAsString(manifest), GenericKubernetesResource.class))
                .inNamespace("default").create();
    }

    private List<Event> events() {
        return kube.client().v1().events().inNamespace("default").list().getItems();
    }

    private static AgentDecision decision(long id, String jobSet, String jobSetUid, String type, String reason,
                                          String message, Instant at) {
        return new AgentDecision(id, at, "9c1e0000-0000-4000-8000-00000000000" + (id % 10), "default", jobSet,
                jobSetUid, type, reason, message);
    }

    /** A JobSet applied to the cluster and suspended by the webhook, as the agent submits it. */
    private GenericKubernetesResource createSuspended(String name) {
        ObjectNode manifest = json.createObjectNode();
        manifest.put("apiVersion", "jobset.x-k8s.io/v1alpha2");
        manifest.put("kind", "JobSet");
        ObjectNode metadata = manifest.putObject("metadata").put("name", name).put("namespace", "default");
        metadata.set("labels", json.valueToTree(Map.of(AgentProtocol.QUEUE_NAME_LABEL, "default-queue")));
        ObjectNode job = manifest.putObject("spec").put("suspend", true).putArray("replicatedJobs").addObject();
        job.put("name", "worker");
        job.withObject("/template/spec/template/spec").putArray("containers").addObject().put("name", "main")
                .put("image", "jax");
        return kube.client().resource(kube.client().getKubernetesSerialization()
                        .unmarshal(json.writeValueAsString(manifest), GenericKubernetesResource.class))
                .inNamespace("default").create();
    }
}
