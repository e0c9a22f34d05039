package dev.platform.agent.health;

import static dev.platform.agent.health.TestNodes.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodeHealthReason;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NodeHealthTest {

    static Stream<Arguments> nodes() {
        return Stream.of(
                Arguments.of("ready, all chips", node("n").build(), HealthState.HEALTHY, List.of()),
                Arguments.of("Ready False", node("n").ready("False").build(), HealthState.UNHEALTHY,
                        List.of(NodeHealthReason.NOT_READY)),
                Arguments.of("Ready Unknown", node("n").ready("Unknown").build(), HealthState.UNHEALTHY,
                        List.of(NodeHealthReason.NOT_READY)),
                Arguments.of("no Ready condition", node("n").ready(null).build(), HealthState.UNHEALTHY,
                        List.of(NodeHealthReason.NOT_READY)),
                Arguments.of("not-ready taint", node("n").taint("node.kubernetes.io/not-ready", "NoSchedule").build(),
                        HealthState.UNHEALTHY, List.of(NodeHealthReason.NOT_READY_TAINT)),
                Arguments.of("unreachable taint", node("n").taint("node.kubernetes.io/unreachable", "NoExecute").build(),
                        HealthState.UNHEALTHY, List.of(NodeHealthReason.UNREACHABLE)),
                Arguments.of("impending termination",
                        node("n").taint("cloud.google.com/impending-node-termination", "NoSchedule").build(),
                        HealthState.UNHEALTHY, List.of(NodeHealthReason.IMPENDING_TERMINATION)),
                Arguments.of("any NoExecute taint", node("n").taint("example.com/broken", "NoExecute").build(),
                        HealthState.UNHEALTHY, List.of(NodeHealthReason.NO_EXECUTE_TAINT)),
                Arguments.of("a NoSchedule taint of the user's is no fault",
                        node("n").taint("google.com/tpu", "NoSchedule").build(), HealthState.HEALTHY, List.of()),
                Arguments.of("cordoned", node("n").cordoned().build(), HealthState.UNHEALTHY,
                        List.of(NodeHealthReason.CORDONED)),
                Arguments.of("a chip lost", node("n").chips(4, 3).build(), HealthState.UNHEALTHY,
                        List.of(NodeHealthReason.UNHEALTHY_CHIPS)),
                Arguments.of("CPU node, no chips", node("n").chips(0, 0).build(), HealthState.HEALTHY, List.of()),
                Arguments.of("maintenance scheduled",
                        node("n").label("cloud.google.com/scheduled-maintenance-time", "1767225600").build(),
                        HealthState.DEGRADED, List.of(NodeHealthReason.MAINTENANCE_SCHEDULED)),
                Arguments.of("maintenance under way",
                        node("n").label("cloud.google.com/active-node-maintenance", "true").build(),
                        HealthState.UNHEALTHY, List.of(NodeHealthReason.MAINTENANCE_ACTIVE)),
                Arguments.of("maintenance label switched off",
                        node("n").label("cloud.google.com/active-node-maintenance", "false").build(),
                        HealthState.HEALTHY, List.of()),
                Arguments.of("scheduled maintenance on a broken node is still Unhealthy",
                        node("n").ready("False").label("cloud.google.com/scheduled-maintenance-time", "1767225600").build(),
                        HealthState.UNHEALTHY, List.of(NodeHealthReason.NOT_READY, NodeHealthReason.MAINTENANCE_SCHEDULED)),
                Arguments.of("every signal at once is reported at once",
                        node("n").ready("False").cordoned().chips(4, 0).taint("node.kubernetes.io/unreachable", "NoExecute").build(),
                        HealthState.UNHEALTHY, List.of(NodeHealthReason.NOT_READY, NodeHealthReason.UNREACHABLE,
                                NodeHealthReason.CORDONED, NodeHealthReason.UNHEALTHY_CHIPS)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nodes")
    void judgesANode(String description, dev.platform.agent.cluster.ClusterNode node, HealthState state,
            List<NodeHealthReason> reasons) {
        NodeHealth health = NodeHealth.of(node);

        assertThat(health.state()).isEqualTo(state);
        assertThat(health.reasons()).containsExactlyElementsOf(reasons);
    }
}
