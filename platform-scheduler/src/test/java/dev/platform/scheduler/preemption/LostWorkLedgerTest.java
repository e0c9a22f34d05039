package dev.platform.scheduler.preemption;

import dev.platform.api.reason.EvictionReason;
import dev.platform.scheduler.testsupport.StoreSliceTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A team's lost work over the last day and week: summed per resource over its namespaces' evictions of every kind,
 * the rows outside the week, after now, and of other teams' namespaces left out.
 */
@StoreSliceTest
class LostWorkLedgerTest {

    private static final Instant NOW = StoreSliceTest.NOW;

    @Autowired
    LostWorkLedger ledger;

    @Autowired
    JdbcClient jdbc;

    @Test
    void aTeamsTotalsSumItsNamespacesLostWorkPerResourceWithinTheDayAndTheWeek() {
        ledger.append(List.of(
                entry("team-a", NOW.minus(Duration.ofHours(2)), EvictionReason.Preempted, "InClusterQueue",
                        Map.of("google.com/tpu", 3600.0 * 8)),
                entry("team-a-dev", NOW.minus(Duration.ofHours(23)), EvictionReason.PodsReadyTimeout,
                        "PodsReadyTimeout", Map.of("google.com/tpu", 3600.0 * 2, "nvidia.com/gpu", 3600.0)),
                entry("team-a", NOW.minus(Duration.ofDays(3)), EvictionReason.Deactivated, "RequeuingLimitExceeded",
                        Map.of("google.com/tpu", 3600.0 * 16)),
                entry("team-a", NOW.minus(Duration.ofDays(8)), EvictionReason.Preempted, "Hotswap",
                        Map.of("google.com/tpu", 3600.0 * 100)),
                entry("team-a", NOW.plusSeconds(60), EvictionReason.Preempted, "InClusterQueue",
                        Map.of("google.com/tpu", 3600.0 * 100)),
                entry("team-b", NOW.minus(Duration.ofHours(1)), EvictionReason.NodeFailures, "NodeFailures",
                        Map.of("google.com/tpu", 3600.0 * 50))));

        assertThat(ledger.totals(List.of("team-a", "team-a-dev"), NOW)).containsExactly(
                new LostWorkLedger.Total("google.com/tpu", 3600.0 * 10, 3600.0 * 26),
                new LostWorkLedger.Total("nvidia.com/gpu", 3600.0, 3600.0));
        assertThat(ledger.totals(List.of("team-b"), NOW)).containsExactly(
                new LostWorkLedger.Total("google.com/tpu", 3600.0 * 50, 3600.0 * 50));
        assertThat(ledger.totals(List.of("team-c"), NOW)).isEmpty();
        assertThat(ledger.totals(List.of(), NOW)).isEmpty();
    }

    /** The sums read the week's rows of the team's namespaces through the index, not the whole history. */
    @Test
    void theTotalsReadTheNamespacesWeekThroughItsIndex() {
        jdbc.sql("SET LOCAL enable_seqscan = off").update();

        String plan = String.join("\n", jdbc.sql("EXPLAIN " + LostWorkLedger.TOTALS)
                .param("namespaces", new String[]{"team-a", "team-a-dev"})
                .param("dayAgo", Timestamp.from(NOW.minus(Duration.ofDays(1))))
                .param("weekAgo", Timestamp.from(NOW.minus(Duration.ofDays(7))))
                .param("now", Timestamp.from(NOW))
                .query(String.class).list());

        assertThat(plan).contains("lost_work_namespace_at_idx").contains("Index Cond");
    }

    private static LostWorkLedger.Entry entry(String namespace, Instant at, EvictionReason eviction, String reason,
                                              Map<String, Double> resourceSeconds) {
        return new LostWorkLedger.Entry(at, UUID.randomUUID(), namespace, "job", "cq", eviction, reason,
                new LostWork(at.minus(Duration.ofHours(1)), resourceSeconds));
    }
}
