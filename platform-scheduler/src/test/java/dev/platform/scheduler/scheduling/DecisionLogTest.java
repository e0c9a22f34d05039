package dev.platform.scheduler.scheduling;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.platform.api.reason.PreemptionReason;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.Workload;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Decision lines name the workload, its ClusterQueue and cluster in the text and as key-value pairs. */
class DecisionLogTest {

    private final Logger logger = (Logger) LoggerFactory.getLogger("dev.platform.scheduler.decisions");
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private Level level;

    /** At INFO whatever the test classpath's logback configuration says (the agent's test jar sets WARN). */
    @BeforeEach
    void capture() {
        level = logger.getLevel();
        logger.setLevel(Level.INFO);
        lines.start();
        logger.addAppender(lines);
    }

    @AfterEach
    void release() {
        logger.detachAppender(lines);
        logger.setLevel(level);
    }

    @Test
    void admissionsAndPreemptionsCarryWorkloadClusterQueueAndCluster() {
        Workload high = new Workload("u1", "default", "high", "lq", 100, Instant.EPOCH, List.of());
        Workload low = new Workload("u2", "default", "low", "lq", 10, Instant.EPOCH, List.of());

        DecisionLog.admitted(new Decision.Admit(high, new Admission("tpu-cq", List.of())), "prod-1");
        DecisionLog.preempted(new Decision.Preempt(low, "tpu-cq", high, "tpu-cq", PreemptionReason.InClusterQueue,
                "Preempted to accommodate a workload"), "prod-1");

        assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
                "admitted default/high in tpu-cq on prod-1",
                "preempted default/low in tpu-cq on prod-1: Preempted to accommodate a workload");
        assertThat(keyValues(lines.list.get(0))).containsEntry("decision", "admitted")
                .containsEntry("workload", "default/high").containsEntry("clusterQueue", "tpu-cq")
                .containsEntry("cluster", "prod-1");
        assertThat(keyValues(lines.list.get(1))).containsEntry("workload", "default/low")
                .containsEntry("reason", "InClusterQueue").containsEntry("preemptor", "default/high");
    }

    private static Map<String, Object> keyValues(ILoggingEvent event) {
        return event.getKeyValuePairs().stream().collect(Collectors.toMap(kv -> kv.key, kv -> kv.value));
    }
}
