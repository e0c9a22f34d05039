package dev.platform.scheduler.kubernetes.handlers;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The printer columns' JSONPaths as Kueue's and JobSet's CRDs write them, read from objects of every shape. */
class TablesTest {

    private static final Map<String, Object> WORKLOAD = Map.of(
            "metadata", Map.of("name", "w", "creationTimestamp", "2026-01-01T00:00:00Z"),
            "spec", Map.of("queueName", "lq", "podSets", List.of(Map.of("count", 4))),
            "status", Map.of("admission", Map.of("clusterQueue", "cq"), "conditions", List.of(
                    Map.of("type", "QuotaReserved", "status", "True"),
                    Map.of("type", "Admitted", "status", "False"))));

    @Test
    void fieldsIndexesAndFiltersAreFollowed() {
        assertThat(Tables.at(WORKLOAD, ".spec.queueName")).isEqualTo("lq");
        assertThat(Tables.at(WORKLOAD, ".status.admission.clusterQueue")).isEqualTo("cq");
        assertThat(Tables.at(WORKLOAD, ".spec.podSets[0].count")).isEqualTo(4);
        assertThat(Tables.at(WORKLOAD, ".status.conditions[?(@.type=='Admitted')].status")).isEqualTo("False");
        assertThat(Tables.at(WORKLOAD, ".status.conditions[?(@.type==\"QuotaReserved\")].status")).isEqualTo("True");
    }

    @Test
    void aPathThatLeadsNowhereIsNull() {
        assertThat(Tables.at(WORKLOAD, ".status.conditions[?(@.type=='Finished')].status")).isNull();
        assertThat(Tables.at(WORKLOAD, ".spec.podSets[3].count")).isNull();
        assertThat(Tables.at(WORKLOAD, ".spec.queueName[0]")).as("an index into a string").isNull();
        assertThat(Tables.at(WORKLOAD, ".spec.queueName.name")).as("a field of a string").isNull();
        assertThat(Tables.at(WORKLOAD, ".spec[?(@.type=='x')]")).as("a filter of a map").isNull();
        assertThat(Tables.at(Map.of(), ".status.admission.clusterQueue")).isNull();
    }

    @Test
    void theSamePathReadsEachObjectOnItsOwn() {
        Map<String, Object> other = Map.of("spec", Map.of("queueName", "other"));
        assertThat(Tables.at(WORKLOAD, ".spec.queueName")).isEqualTo("lq");
        assertThat(Tables.at(other, ".spec.queueName")).isEqualTo("other");
        assertThat(Tables.at(WORKLOAD, ".spec.queueName")).isEqualTo("lq");
    }
}
