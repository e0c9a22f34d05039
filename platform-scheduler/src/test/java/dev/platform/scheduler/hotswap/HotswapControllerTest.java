package dev.platform.scheduler.hotswap;

import dev.platform.scheduler.testsupport.ControllerSliceTest;
import dev.platform.scheduler.web.KeysetCursor;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.never;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** {@code GET /api/v1/hotswaps}: filters and keyset cursor passed to the store, the MTTR fields, bad input as 400. */
class HotswapControllerTest extends ControllerSliceTest {

    private static final Instant DETECTED = Instant.parse("2026-01-01T10:00:00Z");
    private static final UUID THEIRS = UUID.fromString("33333333-3333-3333-3333-333333333333");

    private static HotswapEvent event(long id, Instant detectedAt, Instant runningAt) {
        return new HotswapEvent(id, "prod-1", "pool-a", List.of("node-1"), "NodeNotReady",
                new HotswapEvent.Party("team-a", "train", new UUID(0, id), 100), List.of(), List.of("pool-b"),
                runningAt == null ? "InProgress" : "Recovered", detectedAt, detectedAt.plusSeconds(1),
                detectedAt.plusSeconds(5), runningAt, null);
    }

    @Test
    void aPageShowsEachEventsPhasesAndMttrAndTheNextCursor() throws Exception {
        given(hotswapStore.page(null, null, Optional.empty(), null, null, 3)).willReturn(List.of(
                event(9, DETECTED, DETECTED.plusMillis(12_500)), event(8, DETECTED.minusSeconds(60), null),
                event(7, DETECTED.minusSeconds(120), null)));

        mvc.perform(get("/api/v1/hotswaps").param("limit", "2"))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
                .andExpect(jsonPath("$.items.length()").value(2))
                .andExpect(jsonPath("$.items[0].id").value(9))
                .andExpect(jsonPath("$.items[0].nodePool").value("pool-a"))
                .andExpect(jsonPath("$.items[0].disrupted.uid").value(new UUID(0, 9).toString()))
                .andExpect(jsonPath("$.items[0].replacementPools[0]").value("pool-b"))
                .andExpect(jsonPath("$.items[0].outcome").value("Recovered"))
                .andExpect(jsonPath("$.items[0].detectedAt").value("2026-01-01T10:00:00Z"))
                .andExpect(jsonPath("$.items[0].mttrSeconds").value(12.5))
                .andExpect(jsonPath("$.items[1].mttrSeconds").doesNotExist())
                .andExpect(jsonPath("$.next").value(new KeysetCursor<>(DETECTED.minusSeconds(60), 8L).encode()));
    }

    @Test
    void theFiltersAndTheCursorReachTheStore() throws Exception {
        UUID uid = UUID.randomUUID();
        String cursor = new KeysetCursor<>(DETECTED, 42L).encode();
        given(hotswapStore.page("prod-1", uid, Optional.empty(), DETECTED, 42L, 101)).willReturn(List.of());

        mvc.perform(get("/api/v1/hotswaps").param("cluster", "prod-1").param("workloadUid", uid.toString())
                        .param("cursor", cursor))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items").isEmpty())
                .andExpect(jsonPath("$.next").doesNotExist());
        then(hotswapStore).should().page("prod-1", uid, Optional.empty(), DETECTED, 42L, 101);
    }

    @Test
    void aLimitOutOfRangeABadUidOrAForeignCursorIs400() throws Exception {
        for (String[] param : List.of(new String[]{"limit", "0"}, new String[]{"limit", "1001"},
                new String[]{"workloadUid", "not-a-uuid"}, new String[]{"cursor", "bm90IG91cnM"})) {
            mvc.perform(get("/api/v1/hotswaps").param(param[0], param[1]))
                    .andExpect(status().isBadRequest())
                    .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
        }
        mvc.perform(get("/api/v1/hotswaps").param("limit", "many"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors").isEmpty());
        then(hotswapStore).should(never()).page(any(), any(), any(), any(), any(), anyInt());
    }

    @Test
    void noCursorReadsFromTheNewest() throws Exception {
        given(hotswapStore.page(isNull(), isNull(), eq(Optional.empty()), isNull(), isNull(), anyInt())).willReturn(List.of());

        mvc.perform(get("/api/v1/hotswaps")).andExpect(status().isOk());
        then(hotswapStore).should().page(null, null, Optional.empty(), null, null, 101);
    }

    @Test
    void aLeadReadsTheHotswapsOfTheTeamsWorkloadsWithAnotherTeamsVictimUnnamed() throws Exception {
        callerIs(LEAD);
        HotswapEvent ours = event(5, DETECTED, null);
        HotswapEvent withTheirVictim = new HotswapEvent(5, ours.cluster(), ours.nodePool(), ours.nodes(), ours.reason(),
                ours.disrupted(), List.of(new HotswapEvent.Party("team-b", "their-job", THEIRS, 10),
                new HotswapEvent.Party("team-a", "our-job", new UUID(0, 2), 10)), ours.replacementPools(), "InProgress",
                DETECTED, DETECTED.plusSeconds(1), null, null, "eviction of team-b/their-job: PodDisruptionBudget");
        given(hotswapStore.page(null, null, Optional.of(Set.of("team-a")), null, null, 101))
                .willReturn(List.of(withTheirVictim));

        mvc.perform(get("/api/v1/hotswaps"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items[0].victims[0].uid").value(THEIRS.toString()))
                .andExpect(jsonPath("$.items[0].victims[0].name").doesNotExist())
                .andExpect(jsonPath("$.items[0].victims[0].namespace").doesNotExist())
                .andExpect(jsonPath("$.items[0].victims[1].name").value("our-job"))
                .andExpect(jsonPath("$.items[0].waitingFor").value(HotswapEvent.OTHER_TEAM_WAITING))
                .andExpect(content().string(org.hamcrest.Matchers.not(org.hamcrest.Matchers.containsString("their-job"))));
    }
}
