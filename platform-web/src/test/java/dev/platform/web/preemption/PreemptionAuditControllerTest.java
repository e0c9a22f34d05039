package dev.platform.web.preemption;

import dev.platform.web.console.LostWorkView;
import dev.platform.web.console.PreemptionView;
import dev.platform.web.preemption.PreemptionQueries.PreemptionPage;
import dev.platform.web.preemption.PreemptionQueries.PreemptionSearch;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.platform.web.console.ConsoleFixtures.ADMIN;
import static dev.platform.web.console.ConsoleFixtures.preemption;
import static dev.platform.web.console.ConsoleFixtures.T0;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.never;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(PreemptionAuditController.class)
class PreemptionAuditControllerTest {

    static final PreemptionSearch FILTERED = new PreemptionSearch("tpu-training-cq", "default", "InClusterQueue",
            Instant.parse("2026-03-01T09:00:00Z"), Instant.parse("2026-03-01T12:30:00Z"));

    @Autowired
    MockMvc mvc;

    @MockitoBean
    PreemptionQueries queries;

    @Test
    void filtersFromTheFormKeepTheirValuesAndCarryIntoTheNextAndCsvLinks() throws Exception {
        given(queries.page(ADMIN, FILTERED, null, 50)).willReturn(new PreemptionPage(
                List.of(preemption(2, "low-jax-trillium"), preemption(1, "other")), "CURSOR2"));

        mvc.perform(get("/preemptions").param("clusterQueue", "tpu-training-cq").param("namespace", "default")
                        .param("reason", "InClusterQueue").param("since", "2026-03-01T09:00")
                        .param("until", "2026-03-01T12:30:00Z"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("name=\"clusterQueue\" value=\"tpu-training-cq\""),
                        containsString("name=\"namespace\" value=\"default\""),
                        containsString("<option value=\"InClusterQueue\" selected=\"selected\">"),
                        containsString("name=\"since\" value=\"2026-03-01T09:00\""),
                        containsString("name=\"until\" value=\"2026-03-01T12:30\""),
                        containsString("default/low-jax-trillium"), containsString("default/other"),
                        containsString("href=\"/preemptions?clusterQueue=tpu-training-cq&amp;namespace=default"
                                + "&amp;reason=InClusterQueue&amp;since=2026-03-01T09:00:00Z&amp;until=2026-03-01T12:30:00Z"
                                + "&amp;cursor=CURSOR2\""),
                        containsString("href=\"/api/v1/preemptions?clusterQueue=tpu-training-cq&amp;namespace=default"
                                + "&amp;reason=InClusterQueue&amp;since=2026-03-01T09:00:00Z&amp;until=2026-03-01T12:30:00Z"
                                + "&amp;format=csv\""),
                        containsString("aria-current=\"page\">Preemptions"))));
    }

    @Test
    void followingTheNextLinkPassesTheCursorAndOffersTheFirstPage() throws Exception {
        given(queries.page(ADMIN, new PreemptionSearch(null, null, null, null, null), "CURSOR2", 50))
                .willReturn(new PreemptionPage(List.of(preemption(1, "last")), null));

        mvc.perform(get("/preemptions").param("cursor", "CURSOR2").param("reason", ""))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("default/last"),
                        containsString("href=\"/preemptions\">First page"),
                        containsString("href=\"/api/v1/preemptions?format=csv\""))));
    }

    @Test
    void badTimesAndReasonsAreExplainedWithoutQuerying() throws Exception {
        mvc.perform(get("/preemptions").param("since", "yesterday").param("reason", "Whatever"))
                .andExpect(status().isBadRequest())
                .andExpect(content().string(allOf(containsString("From must be a time such as"),
                        containsString("Reason must be one of"))));
        then(queries).should(never()).page(any(), any(), any(), anyInt());
    }

    @Test
    void aCursorThePortDoesNotKnowIsABadRequest() throws Exception {
        given(queries.page(any(), any(), eq("garbage"), eq(50))).willThrow(new IllegalArgumentException("bad cursor"));

        mvc.perform(get("/preemptions").param("cursor", "garbage"))
                .andExpect(status().isBadRequest())
                .andExpect(content().string(containsString("That page link is no longer valid")));
    }

    @Test
    void saysSoWhenNothingMatches() throws Exception {
        given(queries.page(any(), any(), any(), anyInt())).willReturn(new PreemptionPage(List.of(), null));

        mvc.perform(get("/preemptions"))
                .andExpect(status().isOk())
                .andExpect(content().string(containsString("No preemption matches.")));
    }

    @Test
    void eachPreemptionShowsItsVictimsLostWorkInChipHoursAndSinceWhen() throws Exception {
        PreemptionView p = preemption(3, "low-jax-trillium");
        PreemptionView measured = new PreemptionView(p.id(), p.at(), p.reason(), p.message(), p.preemptor(),
                p.victim(), new LostWorkView(T0.minusSeconds(3600), Map.of("google.com/tpu", 16 * 3600.0)));
        given(queries.page(any(), any(), any(), anyInt())).willReturn(
                new PreemptionPage(List.of(measured, preemption(2, "older")), null));

        mvc.perform(get("/preemptions"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("Victim's lost work"),
                        containsString("google.com/tpu 16.00 chip-hours"),
                        containsString("datetime=\"" + T0.minusSeconds(3600) + "\""),
                        containsString("not measured"))));
    }

    @Test
    void anotherTeamsSideIsSaidSoAndIsNoLink() throws Exception {
        PreemptionView own = preemption(3, "low-jax-trillium");
        PreemptionView hidden = new PreemptionView(3, own.at(), own.reason(), own.message(), own.preemptor(),
                new PreemptionView.Party(null, null, "u-theirs", null, 1000000));
        given(queries.page(any(), any(), any(), anyInt())).willReturn(new PreemptionPage(List.of(hidden), null));

        mvc.perform(get("/preemptions"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("another team's workload"),
                        containsString("href=\"/namespaces/default/workloads/high-jax-trillium\""),
                        not(containsString("null/null")), not(containsString("/namespaces//workloads/")))));
    }
}
