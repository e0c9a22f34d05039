package dev.platform.scheduler.core.quota;

import dev.platform.api.manifest.Quantity;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.CohortSpec;
import dev.platform.scheduler.core.model.FlavorQuotas;
import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.model.ResourceGroup;
import dev.platform.scheduler.core.model.ResourceQuota;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.platform.scheduler.core.CoreFixtures.clusterQueue;
import static org.assertj.core.api.Assertions.assertThat;

/** Quota arithmetic of the cohort tree, table-driven from the facts of Kueue's resource_node_test.go. */
class QuotaTreeTest {

    private static final FlavorResource CPU = new FlavorResource("default", "cpu");

    /** A cohort "all" of queues a and b; a's quota given per case, b has 6 cpu and uses {@code bUsage}. */
    record Case(String name, String aNominal, String aBorrowingLimit, String aLendingLimit, long aUsage, long bUsage,
                long aAvailable, long aPotential, long bAvailable) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("empty cohort lends everything", "4", null, null, 0, 0, 10_000, 10_000, 10_000),
                new Case("borrowingLimit caps what a takes", "4", "2", null, 0, 0, 6_000, 6_000, 10_000),
                new Case("borrowingLimit counts what a already borrows", "4", "2", null, 5_000, 0, 1_000, 6_000, 5_000),
                new Case("lendingLimit keeps a's guaranteed part from b", "4", null, "1", 0, 0, 10_000, 10_000, 7_000),
                new Case("a's guaranteed part is a's even when b fills the rest", "4", null, "1", 0, 7_000, 3_000, 10_000, 0),
                new Case("usage beyond the guaranteed part is stored in the cohort", "4", null, "1", 4_000, 6_000, 0, 10_000, 0),
                new Case("b borrowing leaves a only what is left", "4", null, null, 0, 9_000, 1_000, 10_000, 1_000));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void availableAndPotential(Case c) {
        ClusterQueueSpec a = clusterQueue("a").cohort("all").quota("default", "cpu", c.aNominal(), c.aBorrowingLimit(), c.aLendingLimit()).build();
        ClusterQueueSpec b = clusterQueue("b").cohort("all").quota("default", "cpu", "6").build();
        QuotaTree tree = QuotaTree.build(List.of(), List.of(a, b),
                cq -> Map.of(CPU, cq.equals("a") ? c.aUsage() : c.bUsage()));

        assertThat(tree.clusterQueue("a").available(CPU)).as("a available").isEqualTo(c.aAvailable());
        assertThat(tree.clusterQueue("a").potentialAvailable(CPU)).as("a potential").isEqualTo(c.aPotential());
        assertThat(tree.clusterQueue("b").available(CPU)).as("b available").isEqualTo(c.bAvailable());
    }

    @Test
    void incrementalUsageMatchesARebuild() {
        ClusterQueueSpec a = clusterQueue("a").cohort("team").quota("default", "cpu", "4", null, "1").build();
        ClusterQueueSpec b = clusterQueue("b").cohort("org").quota("default", "cpu", "2").build();
        List<CohortSpec> cohorts = List.of(new CohortSpec("team", "org", List.of(), 1.0), new CohortSpec("org", null,
                List.of(new ResourceGroup(List.of("cpu"), List.of(new FlavorQuotas("default", List.of(ResourceQuota.of("cpu", 3_000)))))), 1.0));
        QuotaTree incremental = QuotaTree.build(cohorts, List.of(a, b), cq -> Map.of());
        incremental.clusterQueue("a").addUsage(CPU, 5_000);
        incremental.clusterQueue("b").addUsage(CPU, 1_000);
        incremental.clusterQueue("a").removeUsage(CPU, 2_000);

        QuotaTree rebuilt = QuotaTree.build(cohorts, List.of(a, b), cq -> Map.of(CPU, cq.equals("a") ? 3_000L : 1_000L));

        for (String node : List.of("team", "org")) {
            assertThat(incremental.cohort(node).usage(CPU)).as(node + " usage").isEqualTo(rebuilt.cohort(node).usage(CPU));
        }
        assertThat(incremental.clusterQueue("b").available(CPU)).isEqualTo(rebuilt.clusterQueue("b").available(CPU));
        assertThat(rebuilt.cohort("org").subtreeQuota(CPU)).as("org: own 3 + a's lendable 1 + b's 2").isEqualTo(6_000);
        assertThat(rebuilt.path("a")).isEqualTo("/org/team/a");
    }

    @Test
    void aSnapshotCopyIsIndependent() {
        QuotaTree tree = QuotaTree.build(List.of(), List.of(clusterQueue("a").cohort("all").quota("default", "cpu", "4").build()),
                cq -> Map.of());
        QuotaTree copy = tree.copy();
        copy.clusterQueue("a").addUsage(CPU, 3_000);

        assertThat(tree.clusterQueue("a").available(CPU)).isEqualTo(4_000);
        assertThat(copy.clusterQueue("a").available(CPU)).isEqualTo(1_000);
        assertThat(copy.cohort("all").usage(CPU)).isEqualTo(3_000);
    }

    @Test
    void aCohortOfLargestQuotasSaturatesInsteadOfWrapping() {
        String largest = Quantity.MAX_TEXT;
        QuotaTree tree = QuotaTree.build(List.of(), List.of(
                clusterQueue("a").cohort("all").quota("default", "cpu", largest).build(),
                clusterQueue("b").cohort("all").quota("default", "cpu", largest).build()), cq -> Map.of());

        assertThat(tree.cohort("all").subtreeQuota(CPU)).isEqualTo(Long.MAX_VALUE);
        assertThat(tree.clusterQueue("a").available(CPU)).isPositive();
    }
}
