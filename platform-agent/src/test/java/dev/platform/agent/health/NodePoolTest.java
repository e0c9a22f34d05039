package dev.platform.agent.health;

import static dev.platform.agent.health.TestNodes.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.agent.cluster.ClusterNode;
import dev.platform.api.agent.GkeLabels;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodeHealthReason;
import dev.platform.api.agent.NodePoolReport;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NodePoolTest {

    static Stream<Arguments> slices() {
        return Stream.of(
                Arguments.of("all healthy", List.of(node("a").build(), node("b").build()), HealthState.HEALTHY, List.of()),
                Arguments.of("one node down makes the slice unhealthy",
                        List.of(node("a").build(), node("b").ready("False").build()),
                        HealthState.UNHEALTHY, List.of(NodeHealthReason.NOT_READY)),
                Arguments.of("maintenance on one node degrades the slice",
                        List.of(node("a").label("cloud.google.com/scheduled-maintenance-time", "1").build(), node("b").build()),
                        HealthState.DEGRADED, List.of(NodeHealthReason.MAINTENANCE_SCHEDULED)),
                Arguments.of("unhealthy beats degraded, reasons add up",
                        List.of(node("a").label("cloud.google.com/scheduled-maintenance-time", "1").build(),
                                node("b").cordoned().build()),
                        HealthState.UNHEALTHY, List.of(NodeHealthReason.CORDONED, NodeHealthReason.MAINTENANCE_SCHEDULED)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("slices")
    void aPoolTakesTheWorstStateOfItsNodes(String description, List<ClusterNode> nodes, HealthState state,
            List<NodeHealthReason> reasons) {
        NodePoolReport pool = NodePool.aggregate(nodes).get(0);

        assertThat(pool.state()).isEqualTo(state);
        assertThat(pool.reasons()).containsExactlyElementsOf(reasons);
    }

    @Test
    void groupsNodesByTheirNodePoolLabelAndLeavesOutNodesWithout() {
        ClusterNode orphan = new ClusterNode("orphan", java.util.Map.of(), false, List.of(), "True", 0, 0);
        List<NodePoolReport> pools = NodePool.aggregate(List.of(
                node("b-1").pool("slice-b").label(GkeLabels.TPU_ACCELERATOR, "tpu-v6e-slice")
                        .label(GkeLabels.TPU_TOPOLOGY, "2x4").build(),
                node("a-2").pool("slice-a").build(),
                node("a-1").pool("slice-a").build(),
                orphan));

        assertThat(pools).extracting(NodePoolReport::name).containsExactly("slice-a", "slice-b");
        assertThat(pools.get(0).nodes()).extracting(n -> n.name()).containsExactly("a-1", "a-2");
        assertThat(pools.get(1).accelerator()).isEqualTo("tpu-v6e-slice");
        assertThat(pools.get(1).topology()).isEqualTo("2x4");
        assertThat(pools.get(0).accelerator()).isNull();
    }
}
