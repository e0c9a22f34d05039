package dev.platform.scheduler.preemption;

import dev.platform.scheduler.testsupport.ControllerSliceTest;
import dev.platform.scheduler.web.KeysetCursor;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.startsWith;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.never;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The preemption audit's HTTP side: filters (narrowed to the namespaces a lead leads), keyset pages,
 * other teams' workloads unnamed, bad filters as 400, and the CSV export chosen by Accept or by format=csv.
 */
class PreemptionControllerTest extends ControllerSliceTest {

    private static final Instant AT = Instant.parse("2026-01-01T10:00:00Z");

    private static PreemptionEvent event(long id, String victimNamespace, String message) {
        return new PreemptionEvent(id, AT, "InClusterQueue", message,
                new PreemptionEvent.Party("team-a", "big", new UUID(1, id), "cq", 100),
                new PreemptionEvent.Party(victimNamespace, "small", new UUID(2, id), "other-cq", 1));
    }

    @Test
    void aLeadsPageIsFilteredToTheirNamespacesAndUnnamesOtherTeams() throws Exception {
        callerIs(LEAD);
        given(preemptionStore.page(any(), isNull(), eq(3))).willReturn(List.of(
                event(5, "team-a", "preempted within cq"), event(4, "team-b", "preempted for big"),
                event(3, "team-a", "third")));

        mvc.perform(get("/api/v1/preemptions").param("limit", "2"))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
                .andExpect(jsonPath("$.items.length()").value(2))
                .andExpect(jsonPath("$.items[0].message").value("preempted within cq"))
                .andExpect(jsonPath("$.items[0].victim.name").value("small"))
                .andExpect(jsonPath("$.items[1].preemptor.name").value("big"))
                .andExpect(jsonPath("$.items[1].victim.name").doesNotExist())
                .andExpect(jsonPath("$.items[1].victim.uid").value(new UUID(2, 4).toString()))
                .andExpect(jsonPath("$.items[1].victim.priority").value(1))
                .andExpect(jsonPath("$.items[1].message").value(PreemptionEvent.OTHER_TEAM_MESSAGE))
                .andExpect(jsonPath("$.next").value(new KeysetCursor<>(AT, 4L).encode()));
        then(preemptionStore).should().page(new PreemptionFilter(null, null, null, null, null, Set.of("team-a")), null, 3);
    }

    @Test
    void theFiltersAndCursorReachTheStore() throws Exception {
        String cursor = new KeysetCursor<>(AT, 9L).encode();
        given(preemptionStore.page(any(), any(), anyInt())).willReturn(List.of());

        mvc.perform(get("/api/v1/preemptions").param("clusterQueue", "cq").param("namespace", "team-a")
                        .param("reason", "Hotswap").param("since", "2026-01-01T00:00:00Z")
                        .param("until", "2026-01-02T00:00:00Z").param("cursor", cursor))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items").isEmpty());
        then(preemptionStore).should().page(new PreemptionFilter("cq", "team-a", "Hotswap",
                Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-02T00:00:00Z"), null),
                new KeysetCursor<>(AT, 9L), 101);
    }

    @Test
    void anUnknownReasonABadTimeOrALimitOutOfRangeIs400() throws Exception {
        mvc.perform(get("/api/v1/preemptions").param("reason", "Because"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value(startsWith("reason must be one of [Hotswap, InClusterQueue")));
        mvc.perform(get("/api/v1/preemptions").param("since", "yesterday"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value(containsString("since must be an RFC 3339 time")));
        mvc.perform(get("/api/v1/preemptions").param("limit", "1001"))
                .andExpect(status().isBadRequest());
        mvc.perform(get("/api/v1/preemptions").param("format", "csv").param("until", "later"))
                .andExpect(status().isBadRequest());
        then(preemptionStore).should(never()).page(any(), any(), anyInt());
    }

    @Test
    void theCsvExportQuotesFieldsAndDefusesFormulas() throws Exception {
        given(preemptionStore.page(any(), isNull(), eq(5000))).willReturn(List.of(
                new PreemptionEvent(7, AT, "InClusterQueue", "=HYPERLINK(\"x\"), then more",
                        new PreemptionEvent.Party("team-a", "big", UUID.fromString("11111111-1111-1111-1111-111111111111"), "cq", 100),
                        new PreemptionEvent.Party("team-a", "-small", UUID.fromString("22222222-2222-2222-2222-222222222222"), "cq", 1))));

        mvc.perform(get("/api/v1/preemptions").accept("text/csv"))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith("text/csv"))
                .andExpect(header().string("Content-Disposition", "attachment; filename=\"preemptions.csv\""))
                .andExpect(content().string(startsWith("id,at,reason,message,preemptor_namespace,")))
                .andExpect(content().string(containsString("\r\n7,2026-01-01T10:00:00Z,InClusterQueue,"
                        + "\"'=HYPERLINK(\"\"x\"\"), then more\",team-a,big,11111111-1111-1111-1111-111111111111,cq,100,team-a,'-small,22222222-2222-2222-2222-222222222222,cq,1,,\r\n")));
    }

    @Test
    void theCsvExportSaysWhatThePreemptionCostTheVictim() throws Exception {
        given(preemptionStore.page(any(), isNull(), eq(5000))).willReturn(List.of(
                new PreemptionEvent(9, AT, "Hotswap", "m",
                        new PreemptionEvent.Party("team-a", "big", UUID.fromString("11111111-1111-1111-1111-111111111111"), "cq", 100),
                        new PreemptionEvent.Party("team-a", "small", UUID.fromString("22222222-2222-2222-2222-222222222222"), "cq", 1),
                        new LostWork(AT.minusSeconds(60), java.util.Map.of("google.com/tpu", 960.0)))));

        mvc.perform(get("/api/v1/preemptions").accept("text/csv"))
                .andExpect(content().string(containsString(",lost_work_since,lost_work_resource_seconds\r\n")))
                .andExpect(content().string(containsString(",cq,1,2026-01-01T09:59:00Z,google.com/tpu=960.0\r\n")));
    }

    @Test
    void aPriorityIsANumberAndEveryTextCellIsDefused() throws Exception {
        given(preemptionStore.page(any(), isNull(), eq(5000))).willReturn(List.of(new PreemptionEvent(8, AT,
                "InClusterQueue", "=HYPERLINK(\"http://evil\",\"x\")",
                new PreemptionEvent.Party("team-a", "p", UUID.fromString("11111111-1111-1111-1111-111111111111"), "cq", -5),
                new PreemptionEvent.Party("team-a", "v", UUID.fromString("22222222-2222-2222-2222-222222222222"), "cq", 1))));

        mvc.perform(get("/api/v1/preemptions").param("format", "csv"))
                .andExpect(content().string(containsString(",\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\",")))
                .andExpect(content().string(containsString(",cq,-5,")));
        // names are Kubernetes names in the schema; the rule holds for every text cell all the same
        assertThat(List.of("+cmd", "-2+3", "@SUM(A1)", "\tteam", "\rx", "", "team-a", "a=b"))
                .map(CsvExport::csv)
                .containsExactly("'+cmd", "'-2+3", "'@SUM(A1)", "'\tteam", "\"'\rx\"", "", "team-a", "a=b");
    }

    @Test
    void aBrowserLinkGetsCsvWhateverItAcceptsAndAnEmptyExportIsItsHeader() throws Exception {
        given(preemptionStore.page(any(), isNull(), eq(5000))).willReturn(List.of());

        mvc.perform(get("/api/v1/preemptions").param("clusterQueue", "other").param("format", "csv")
                        .accept(MediaType.TEXT_HTML))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith("text/csv"))
                .andExpect(content().string(matchesPattern("id,at,reason,message,[a-z_,]+\r\n")));
    }

    @Test
    void aLinkChoosesCsvWithFormatAndTheExportPagesUntilAShortPage() throws Exception {
        List<PreemptionEvent> full = java.util.stream.LongStream.range(0, 5000)
                .mapToObj(i -> event(10_000 - i, "team-a", "m")).toList();
        given(preemptionStore.page(any(), isNull(), eq(5000))).willReturn(full);
        given(preemptionStore.page(any(), eq(new KeysetCursor<>(AT, 5001L)), eq(5000)))
                .willReturn(List.of(event(1, "team-a", "last")));

        mvc.perform(get("/api/v1/preemptions").param("format", "csv"))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith("text/csv"))
                .andExpect(content().string(containsString("\r\n1,2026-01-01T10:00:00Z,InClusterQueue,last,")));
        then(preemptionStore).should().page(any(), eq(new KeysetCursor<>(AT, 5001L)), eq(5000));
    }
}
