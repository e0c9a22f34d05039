package dev.platform.scheduler.workload;

import dev.platform.api.manifest.WorkloadManifest;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.workload.PriorityResolver.ResolvedPriority;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import static dev.platform.scheduler.testsupport.StoredWorkloads.workload;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A workload's priority, first found wins: the WorkloadPriorityClass its label names, the PriorityClass of its
 * pods, the global default PriorityClass, else 0; a class named that does not exist is refused.
 */
@StoreSliceTest
class PriorityResolverTest {

    @Autowired
    PriorityResolver priorities;

    @Autowired
    JdbcClient jdbc;

    @BeforeEach
    void classes() {
        priorityClass("WorkloadPriorityClass", "batch", 50, false);
        priorityClass("PriorityClass", "high", 1000, false);
    }

    private void priorityClass(String kind, String name, int value, boolean globalDefault) {
        jdbc.sql("INSERT INTO priority_class (kind, name, value, global_default, spec) VALUES (?, ?, ?, ?, '{}')")
                .params(kind, name, value, globalDefault).update();
    }

    private static WorkloadManifest job(String podPriorityClass, String workloadPriorityClass) {
        String yaml = Manifests.job("train", "lq", "1", podPriorityClass);
        return workload("team-a", workloadPriorityClass == null ? yaml : yaml.replace("{kueue.x-k8s.io/queue-name: lq}",
                "{kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/priority-class: " + workloadPriorityClass + "}"));
    }

    @Test
    void theWorkloadPriorityClassComesBeforeThePodsPriorityClass() {
        assertThat(priorities.resolve(job("high", "batch"))).isEqualTo(new ResolvedPriority("batch", 50));
        assertThat(priorities.resolve(job("high", null))).isEqualTo(new ResolvedPriority("high", 1000));
    }

    @Test
    void withoutAClassTheGlobalDefaultDecidesElseZero() {
        assertThat(priorities.resolve(job(null, null))).isEqualTo(new ResolvedPriority(null, 0));

        priorityClass("PriorityClass", "everyone", 7, true);

        assertThat(priorities.resolve(job(null, null))).isEqualTo(new ResolvedPriority("everyone", 7));
    }

    @Test
    void aClassNamedThatDoesNotExistIsRefused() {
        assertThatThrownBy(() -> priorities.resolve(job("missing", null))).isInstanceOfSatisfying(Refusal.class,
                e -> {
                    assertThat(e.kind()).isEqualTo(Refusal.Kind.Invalid);
                    assertThat(e.getMessage()).contains("PriorityClass \"missing\" not found");
                });
        assertThatThrownBy(() -> priorities.resolve(job(null, "batch-missing"))).isInstanceOf(Refusal.class)
                .hasMessageContaining("WorkloadPriorityClass \"batch-missing\" not found");
    }
}
