package dev.platform.scheduler.preemption;

import dev.platform.scheduler.testsupport.KeysetPages;
import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.web.KeysetCursor;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The preemption history: keyset pages through events of the same instant, the filters (a team lead's
 * namespaces on either side, a ClusterQueue or namespace on either side, reason, time window) and a
 * workload's own events.
 */
@StoreSliceTest
class PreemptionStoreTest {

    private static final Instant T0 = StoreSliceTest.NOW;
    private static final PreemptionFilter ALL = new PreemptionFilter(null, null, null, null, null, null);

    @Autowired
    PreemptionStore store;

    private static PreemptionEvent.Party party(String namespace, String name, String clusterQueue, int priority) {
        return new PreemptionEvent.Party(namespace, name, UUID.randomUUID(), clusterQueue, priority);
    }

    private static PreemptionEvent event(Instant at, String reason, PreemptionEvent.Party preemptor,
                                         PreemptionEvent.Party victim) {
        return new PreemptionEvent(0, at, reason, "m", preemptor, victim);
    }

    /** Newest first, then the higher id: the order of the page query, computed from what was stored. */
    private static final Comparator<PreemptionEvent> NEWEST_FIRST = Comparator.comparing(PreemptionEvent::at)
            .thenComparingLong(PreemptionEvent::id).reversed();

    @Test
    void pagesFollowTheKeysetOverManyEventsAndThroughEventsOfTheSameInstant() {
        List<PreemptionEvent> events = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            events.add(event(i < 100 ? T0 : T0.plusSeconds(i), "InClusterQueue", party("team-a", "p" + i, "cq", 2),
                    party("team-a", "v" + i, "cq", 1)));
        }
        store.append(events, 1);

        List<PreemptionEvent> seen = KeysetPages.all(
                (KeysetCursor<Long> cursor) -> store.page(ALL, cursor, 100), 100,
                last -> new KeysetCursor<>(last.at(), last.id()));

        assertThat(seen).hasSize(250).doesNotHaveDuplicates().isSortedAccordingTo(NEWEST_FIRST);
        assertThat(seen).extracting(e -> e.preemptor().name()).startsWith("p249", "p248", "p247");
    }

    @Test
    void aTeamLeadSeesEventsWithOneOfTheirNamespacesOnEitherSide() {
        store.append(List.of(
                event(T0, "InClusterQueue", party("team-a", "a1", "cq", 2), party("team-a", "a2", "cq", 1)),
                event(T0, "InCohortReclamation", party("team-b", "b1", "cq-b", 2), party("team-a", "a3", "cq", 1)),
                event(T0, "InCohortReclamation", party("team-a", "a4", "cq", 2), party("team-c", "c1", "cq-c", 1)),
                event(T0, "InClusterQueue", party("team-c", "c2", "cq-c", 2), party("team-c", "c3", "cq-c", 1))), 1);

        assertThat(store.page(new PreemptionFilter(null, null, null, null, null, Set.of("team-a")), null, 10))
                .extracting(e -> e.preemptor().name()).containsExactlyInAnyOrder("a1", "b1", "a4");
        assertThat(store.page(new PreemptionFilter(null, null, null, null, null, Set.of()), null, 10)).isEmpty();
        assertThat(store.page(new PreemptionFilter(null, "team-c", null, null, null, null), null, 10))
                .extracting(e -> e.preemptor().name()).containsExactlyInAnyOrder("a4", "c2");
        assertThat(store.page(new PreemptionFilter(null, "team-c", null, null, null, Set.of("team-a")), null, 10))
                .extracting(e -> e.preemptor().name()).containsExactly("a4");
    }

    @Test
    void aClusterQueueFilterMatchesEitherSideAndNarrowsByNamespace() {
        store.append(List.of(
                event(T0, "InCohortReclamation", party("team-b", "b1", "cq-b", 2), party("team-a", "a1", "cq", 1)),
                event(T0.plusSeconds(1), "InCohortReclamation", party("team-a", "a2", "cq", 2),
                        party("team-c", "c1", "cq-c", 1)),
                event(T0.plusSeconds(2), "InClusterQueue", party("team-c", "c2", "cq-c", 2),
                        party("team-c", "c3", "cq-c", 1))), 1);

        assertThat(store.page(new PreemptionFilter("cq", null, null, null, null, null), null, 10))
                .extracting(e -> e.preemptor().name()).containsExactly("a2", "b1");
        assertThat(store.page(new PreemptionFilter("cq", "team-b", null, null, null, null), null, 10))
                .extracting(e -> e.preemptor().name()).containsExactly("b1");
        assertThat(store.page(new PreemptionFilter("cq", null, null, null, null, null), null, 1))
                .extracting(e -> e.preemptor().name()).containsExactly("a2");
    }

    @Test
    void reasonAndTimeWindowFilterAndAWorkloadSeesItsOwnEvents() {
        PreemptionEvent.Party both = party("team-a", "both", "cq", 5);
        store.append(List.of(
                event(T0, "InClusterQueue", both, party("team-a", "v1", "cq", 1)),
                event(T0.plusSeconds(10), "InCohortReclamation", party("team-a", "p2", "cq", 9), both),
                event(T0.plusSeconds(20), "InClusterQueue", party("team-a", "p3", "cq", 9), party("team-a", "v3", "cq", 1))),
                1);

        assertThat(store.page(new PreemptionFilter(null, null, "InCohortReclamation", null, null, null), null, 10))
                .extracting(e -> e.preemptor().name()).containsExactly("p2");
        assertThat(store.page(new PreemptionFilter(null, null, null, T0.plusSeconds(10), T0.plusSeconds(20), null),
                null, 10)).extracting(e -> e.preemptor().name()).containsExactly("p2");
        assertThat(store.involving(both.uid(), 10)).extracting(e -> e.at())
                .containsExactly(T0.plusSeconds(10), T0);
        assertThat(store.involving(both.uid(), 1)).hasSize(1);
    }
}
