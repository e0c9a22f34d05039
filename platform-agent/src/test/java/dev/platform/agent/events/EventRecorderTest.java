package dev.platform.agent.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.platform.agent.cluster.ClusterJob;
import dev.platform.agent.cluster.JobKind;
import dev.platform.agent.simulation.SimulatedCluster;
import dev.platform.agent.simulation.SimulatedClusterLayout;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** client-go's recorder rules: a repeat aggregated into its Event, a burst per JobSet, then one per five minutes. */
class EventRecorderTest {

    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    private final SimulatedCluster cluster = new SimulatedCluster(SimulatedClusterLayout.tpuDemo(), Clock.systemUTC());
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final EventRecorder recorder = new EventRecorder(cluster, "platform-agent", "agent-1", registry);
    private final ClusterJob train = new ClusterJob(JobKind.JOBSET, "default", "train", "uid-train", Map.of(), Map.of(), true,
            null, null);
    private final ClusterJob other = new ClusterJob(JobKind.JOBSET, "default", "other", "uid-other", Map.of(), Map.of(), true,
            null, null);

    @Test
    void aRepeatIsCountedOnTheEventWrittenBefore() {
        recorder.record(train, "Normal", "Pending", "waits for quota", T0);
        recorder.record(train, "Normal", "Pending", "waits for quota", T0.plusSeconds(10));
        recorder.record(train, "Normal", "Pending", "waits for quota; position 0", T0.plusSeconds(20));

        assertThat(cluster.events()).extracting(e -> e.path("message").asString(), e -> e.path("count").asInt(),
                        e -> e.path("lastTimestamp").asString())
                .containsExactly(tuple("waits for quota", 2, "2026-01-01T10:00:10Z"),
                        tuple("waits for quota; position 0", 1, "2026-01-01T10:00:20Z"));
    }

    @Test
    void eachJobSetGetsABurstThenOneEventPerFiveMinutes() {
        for (int i = 0; i < EventRecorder.BURST + 5; i++) {
            recorder.record(train, "Normal", "Pending", "decision " + i, T0);
        }
        recorder.record(other, "Normal", "Pending", "another JobSet's own budget", T0);
        recorder.record(train, "Normal", "Pending", "a minute later", T0.plusSeconds(60));
        recorder.record(train, "Normal", "Pending", "five minutes later", T0.plus(EventRecorder.REFILL));

        assertThat(eventsOn("train")).isEqualTo(EventRecorder.BURST + 1);
        assertThat(eventsOn("other")).isEqualTo(1);
        assertThat(cluster.events()).extracting(e -> e.path("message").asString())
                .contains("decision 24", "five minutes later").doesNotContain("decision 25", "a minute later");
        assertThat(registry.get("platform.agent.events").tag("outcome", "dropped").counter().count()).isEqualTo(6);
    }

    private long eventsOn(String jobSet) {
        return cluster.events().stream().map(e -> e.path("involvedObject").path("name"))
                .map(JsonNode::asString).filter(jobSet::equals).count();
    }
}
