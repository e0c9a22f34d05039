package dev.platform.scheduler.cluster;

import dev.platform.scheduler.cluster.DecisionEvents.Wording;
import dev.platform.scheduler.preemption.LostWork;
import dev.platform.scheduler.preemption.PreemptionEvent;
import dev.platform.scheduler.workload.WorkloadOrigins.ClusterEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Which timeline entries become Events on a JobSet, with which reason and type; the echoes of an eviction none. */
class DecisionEventsTest {

    @ParameterizedTest(name = "{0}={1} {2}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            QuotaReserved | False | WaitingForQuota | insufficient unused quota | Normal  | Pending       | insufficient unused quota (WaitingForQuota)
            QuotaReserved | False | Preempted       | The workload was evicted  | -       | -             | -
            QuotaReserved | True  | QuotaReserved   | Quota reserved in ClusterQueue cq | Normal | QuotaReserved | Quota reserved in ClusterQueue cq
            Admitted      | False | Preempted       | The workload was evicted  | -       | -             | -
            Admitted      | True  | Admitted        | The workload is admitted  | Normal  | Admitted      | The workload is admitted
            Preempted     | True  | InClusterQueue  | Preempted to accommodate a workload (UID: 1) | Warning | Preempted | Preempted to accommodate a workload (UID: 1)
            Evicted       | True  | Preempted       | Preempted to accommodate a workload (UID: 1) | Warning | Evicted | Preempted: Preempted to accommodate a workload (UID: 1)
            Evicted       | False | QuotaReserved   | Previously: preempted     | -       | -             | -
            Preempted     | False | QuotaReserved   | Previously: preempted     | -       | -             | -
            Hotswap       | True  | NodeFailure     | node pool p-1 failed      | Warning | Hotswapped    | node pool p-1 failed
            Finished      | True  | Succeeded       | JobSet finished           | Normal  | Finished      | Succeeded: JobSet finished
            PodsReady     | True  | PodsReady       | All pods are ready        | -       | -             | -
            """)
    void aTimelineEntryReadsAsAnEvent(String type, String status, String reason, String message, String eventType,
                                      String eventReason, String eventMessage) {
        ClusterEntry entry = new ClusterEntry(7, Instant.parse("2026-01-01T00:00:00Z"), UUID.randomUUID(), "default",
                "train", null, type, status, reason, message);

        Optional<Wording> wording = DecisionEvents.of(entry, null, null);

        assertThat(wording).isEqualTo(eventType == null ? Optional.empty()
                : Optional.of(new Wording(eventType, eventReason, eventMessage)));
    }

    @Test
    void aPreemptionNamesThePreemptorOfTheSameNamespaceOnlyAndTheWorkLost() {
        UUID victim = UUID.randomUUID();
        Instant at = Instant.parse("2026-01-01T12:00:00Z");
        ClusterEntry entry = new ClusterEntry(9, at, victim, "default", "low-jax-trillium", null, "Preempted", "True",
                "InClusterQueue", "Preempted to accommodate a workload (UID: 42) due to prioritization in the"
                + " ClusterQueue");
        LostWork lost = new LostWork(at.minusSeconds(3600), Map.of("google.com/tpu", 32 * 3600.0));
        PreemptionEvent.Party low = new PreemptionEvent.Party("default", "low-jax-trillium", victim, "cq", 1000000);

        Wording sameNamespace = DecisionEvents.of(entry, null, new PreemptionEvent(1, at, "InClusterQueue", "",
                new PreemptionEvent.Party("default", "high-jax-trillium", UUID.randomUUID(), "cq", 2000000), low,
                lost)).orElseThrow();
        Wording otherNamespace = DecisionEvents.of(entry, null, new PreemptionEvent(1, at, "InClusterQueue", "",
                new PreemptionEvent.Party("vision", "secret-project", UUID.randomUUID(), "vision-cq", 2000000), low,
                null)).orElseThrow();

        assertThat(sameNamespace.type()).isEqualTo("Warning");
        assertThat(sameNamespace.message()).isEqualTo(entry.message() + "; preempted by high-jax-trillium (priority"
                + " 2000000, ClusterQueue cq); lost work google.com/tpu 32.00 chip-hours since 2026-01-01T11:00:00Z");
        assertThat(otherNamespace.message()).isEqualTo(entry.message()
                + "; preempted by a workload of another namespace (priority 2000000)");
    }
}
