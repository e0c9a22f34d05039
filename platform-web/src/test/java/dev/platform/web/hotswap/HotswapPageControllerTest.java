package dev.platform.web.hotswap;

import dev.platform.web.console.CurrentCaller;
import dev.platform.web.console.HotswapView;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import java.util.List;
import java.util.Optional;

import static dev.platform.web.console.ConsoleFixtures.ADMIN;
import static dev.platform.web.console.ConsoleFixtures.LEAD;
import static dev.platform.web.console.ConsoleFixtures.T0;
import static dev.platform.web.console.ConsoleFixtures.inProgressHotswap;
import static dev.platform.web.console.ConsoleFixtures.recoveredHotswap;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(HotswapPageController.class)
class HotswapPageControllerTest {

    @Autowired
    MockMvc mvc;

    @MockitoBean
    HotswapQueries queries;

    @MockitoBean
    CurrentCaller caller;

    @BeforeEach
    void anAdmin() {
        given(caller.get()).willReturn(Optional.of(ADMIN));
    }

    @Test
    void aLeadSeesAnotherTeamsVictimUnnamedAndNoLinkToIt() throws Exception {
        given(caller.get()).willReturn(Optional.of(LEAD));
        HotswapView event = recoveredHotswap(7, T0);
        given(queries.latest(LEAD, 100)).willReturn(List.of(new HotswapView(event.id(), event.cluster(), event.nodePool(),
                event.nodes(), event.reason(), event.disrupted(), List.of(new HotswapView.Party(null, null)),
                event.replacementPools(), event.outcome(), event.detectedAt(), event.decidedAt(), event.evictionsDoneAt(),
                event.runningAt())));

        mvc.perform(get("/hotswaps"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("another team's workload"),
                        containsString("href=\"/namespaces/default/workloads/high-jax-trillium\""),
                        not(containsString("null/null")), not(containsString("/namespaces//workloads/")))));
    }

    @Test
    void showsEachPhaseTimestampAndBarsProportionalToThePhaseDurations() throws Exception {
        given(queries.latest(ADMIN, 100)).willReturn(List.of(recoveredHotswap(7, T0)));

        mvc.perform(get("/hotswaps"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("<time datetime=\"2026-03-01T10:00:00Z\" title=\"2026-03-01 10:00:00 UTC\">1 h ago</time>"),
                        containsString("<time datetime=\"2026-03-01T10:00:00.500Z\" title=\"2026-03-01 10:00:00.500 UTC\">"
                                + "1 h ago</time>"),
                        containsString("<time datetime=\"2026-03-01T10:00:02.500Z\" title=\"2026-03-01 10:00:02.500 UTC\">"
                                + "1 h ago</time>"),
                        containsString("<time datetime=\"2026-03-01T10:00:04Z\" title=\"2026-03-01 10:00:04 UTC\">1 h ago</time>"),
                        // 0.5 s, 2 s and 1.5 s of 4 s
                        containsString("class=\"phase phase-decide\" style=\"width:12.5%\" title=\"decide: 0.5 s\""),
                        containsString("class=\"phase phase-evict\" style=\"width:50.0%\" title=\"evict: 2.0 s\""),
                        containsString("class=\"phase phase-restart\" style=\"width:37.5%\" title=\"restart: 1.5 s\""),
                        containsString("aria-label=\"decide 0.5 s, evict 2.0 s, restart 1.5 s\""),
                        containsString("MTTR 4.0 s"), containsString("Recovered"))));
    }

    @Test
    void linksTheDisruptedWorkloadAndVictimsAndListsReplacementPools() throws Exception {
        given(queries.latest(ADMIN, 100)).willReturn(List.of(recoveredHotswap(7, T0)));

        mvc.perform(get("/hotswaps"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("<a class=\"disrupted\" href=\"/namespaces/default/workloads/high-jax-trillium\">default/high-jax-trillium</a>"),
                        containsString("<a class=\"victim\" href=\"/namespaces/default/workloads/low-jax-trillium\">default/low-jax-trillium</a>"),
                        containsString("<td>pool-1, pool-3</td>"), containsString("sim/pool-2"),
                        containsString("nodes: pool-2-node-0"), containsString("aria-current=\"page\">Hotswaps"))));
    }

    @Test
    void chartsMttrOfRecoveredEventsOverTimeAndLeavesOutThoseInProgress() throws Exception {
        given(queries.latest(ADMIN, 100)).willReturn(List.of(inProgressHotswap(9, T0.plusSeconds(120)),
                recoveredHotswap(8, T0.plusSeconds(60)), recoveredHotswap(7, T0)));

        mvc.perform(get("/hotswaps"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("aria-label=\"MTTR of 2 recovered hotswaps, at most 4.0 s\""),
                        containsString("points=\"48.0,12.0 632.0,12.0\""),
                        containsString("href=\"#hotswap-7\""), containsString("href=\"#hotswap-8\""),
                        containsString("<title>default/high-jax-trillium: MTTR 4.0 s, 1 h ago (2026-03-01 10:00:00 UTC)</title>"),
                        not(containsString("10:00:00Z</title>")),
                        not(containsString("href=\"#hotswap-9\"")),
                        containsString("<span class=\"badge outcome-inprogress\">InProgress</span>"),
                        containsString("none (a free pool)"))));
    }

    @Test
    void saysSoWhenThereIsNoHotswap() throws Exception {
        given(queries.latest(ADMIN, 100)).willReturn(List.of());

        mvc.perform(get("/hotswaps"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("No hotswap yet"),
                        containsString("No recovered hotswap yet."), not(containsString("<svg")))));
    }
}
