package dev.platform.web.team;

import dev.platform.api.reason.PendingReason;
import dev.platform.web.console.LocalQueueView;
import dev.platform.web.console.WorkloadLine;
import dev.platform.web.team.TeamQueries.TeamView;
import dev.platform.web.console.CurrentCaller;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import java.util.List;
import java.util.Optional;

import static dev.platform.web.console.ConsoleFixtures.T0;
import static dev.platform.web.console.ConsoleFixtures.borrowingQueue;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static dev.platform.web.console.ConsoleFixtures.ADMIN;
import static dev.platform.web.console.ConsoleFixtures.LEAD;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.never;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.verify;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.flash;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(TeamPageController.class)
class TeamPageControllerTest {

    @Autowired
    MockMvc mvc;

    @MockitoBean
    TeamQueries queries;

    @MockitoBean
    TeamCommands commands;

    @MockitoBean
    CurrentCaller caller;

    @BeforeEach
    void asAdmin() {
        given(caller.get()).willReturn(Optional.of(ADMIN));
    }

    @Test
    void showsTheWorkTheTeamLostToEvictionsInChipHoursOverTheDayAndTheWeek() throws Exception {
        given(queries.teams(ADMIN)).willReturn(List.of("team-b"));
        given(queries.team("team-b", 50)).willReturn(Optional.of(new TeamView("team-b", List.of("team-b"), List.of(),
                List.of(), List.of(), false)));
        given(queries.lostWork("team-b")).willReturn(List.of(
                new TeamQueries.LostWorkTotal("google.com/tpu", 3600.0 * 8, 3600.0 * 26.5),
                new TeamQueries.LostWorkTotal("nvidia.com/gpu", 0, 1800)));

        mvc.perform(get("/teams").param("team", "team-b"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("Work lost to evictions"),
                        containsString("<th scope=\"row\">google.com/tpu</th>"),
                        containsString("<td class=\"num\">8.00 chip-hours</td>"),
                        containsString("<td class=\"num\">26.50 chip-hours</td>"),
                        containsString("<td class=\"num\">0.00 chip-hours</td>"),
                        containsString("<td class=\"num\">0.50 chip-hours</td>"))));
    }

    @Test
    void aTeamThatLostNoWorkSaysSo() throws Exception {
        given(queries.teams(ADMIN)).willReturn(List.of("team-b"));
        given(queries.team("team-b", 50)).willReturn(Optional.of(new TeamView("team-b", List.of("team-b"), List.of(),
                List.of(), List.of(), false)));

        mvc.perform(get("/teams").param("team", "team-b"))
                .andExpect(status().isOk())
                .andExpect(content().string(containsString("No work lost in the last week.")));
    }

    @Test
    void showsTheChosenTeamsQueuesQuotaBorrowingAndWorkloads() throws Exception {
        given(queries.teams(ADMIN)).willReturn(List.of("default-team", "team-b"));
        given(queries.team("team-b", 50)).willReturn(Optional.of(new TeamView("team-b", List.of("team-b"),
                List.of(new LocalQueueView("team-b", "lq-b", "team-b", "None", "2", "cpu 3500m, google.com/tpu 8",
                        T0), new LocalQueueView("team-b", "lq-new", "team-b", "None")),
                List.of(borrowingQueue()),
                List.of(new WorkloadLine("team-b", "train-1", "JobSet", "Pending", "lq-b", "team-b", 5, 3, 1,
                        PendingReason.WaitingForQuota, "short", T0, null),
                        new WorkloadLine("team-b", "train-0", "JobSet", "Running", "lq-b", "team-b", 5, null, null,
                                null, null, T0, T0)),
                true)));

        mvc.perform(get("/teams").param("team", "team-b"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("<option value=\"team-b\" selected=\"selected\">team-b</option>"),
                        containsString("<th scope=\"row\">team-b/lq-b</th>"), containsString("href=\"/queues/team-b\""),
                        containsString("cpu 3500m, google.com/tpu 8"), containsString("(weight <span>2</span>"),
                        containsString("not recorded"),
                        containsString("20 of 16"), containsString("borrowed 4"), containsString("borrow ≤ 8"),
                        containsString("href=\"/namespaces/team-b/workloads/train-1\""), containsString("3 / 1"),
                        containsString("Waiting for quota to free up"), containsString("Running"),
                        containsString("/api/v1/namespaces/&lt;namespace&gt;/workloads"),
                        containsString("aria-current=\"page\">Team quota"))));
    }

    @Test
    void drawsUsageOverTheLastDayAsOneLinePerQuota() throws Exception {
        given(queries.teams(ADMIN)).willReturn(List.of("ml"));
        given(queries.team("ml", 50)).willReturn(Optional.of(empty("ml")));
        given(queries.usageHistory("ml")).willReturn(List.of(new TeamQueries.UsageSeries("tpu-training-cq",
                "tpu-v6e-slice", "google.com/tpu", "32", List.of(
                        new TeamQueries.UsagePoint(T0, 0, 32), new TeamQueries.UsagePoint(T0.plusSeconds(60), 16, 32),
                        new TeamQueries.UsagePoint(T0.plusSeconds(120), 48, 32)))));

        mvc.perform(get("/teams"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("Usage over the last day"),
                        containsString("points=\"48.0,176.0 340.0,121.3 632.0,12.0\""),
                        containsString("tpu-training-cq · tpu-v6e-slice / google.com/tpu"),
                        containsString("150% of 32"), containsString(">150%<"),
                        containsString("<title>2026-03-01 10:00:00 UTC</title>"), containsString(" ago</text>"),
                        not(containsString("2026-03-01T10:0")))));
    }

    @Test
    void saysWhenNoUsageWasSampledYet() throws Exception {
        given(queries.teams(ADMIN)).willReturn(List.of("ml"));
        given(queries.team("ml", 50)).willReturn(Optional.of(empty("ml")));

        mvc.perform(get("/teams"))
                .andExpect(status().isOk())
                .andExpect(content().string(containsString("No usage sampled yet")));
    }

    @Test
    void picksTheFirstTeamWhenNoneIsChosen() throws Exception {
        given(queries.teams(ADMIN)).willReturn(List.of("ml", "team-b"));
        given(queries.team("ml", 50)).willReturn(Optional.of(empty("ml")));

        mvc.perform(get("/teams"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("<option value=\"ml\" selected=\"selected\">ml</option>"),
                        containsString("namespaces have no LocalQueue."), containsString("No workloads."))));
    }

    @Test
    void saysSoWhenThereIsNoTeam() throws Exception {
        given(queries.teams(ADMIN)).willReturn(List.of());

        mvc.perform(get("/teams"))
                .andExpect(status().isOk())
                .andExpect(content().string(containsString("No team yet.")));
    }

    @Test
    void aTeamTheCallerDoesNotLeadIsForbiddenAndNotLookedUp() throws Exception {
        given(caller.get()).willReturn(Optional.of(LEAD));
        given(queries.teams(LEAD)).willReturn(List.of("vision"));

        mvc.perform(get("/teams").param("team", "nlp"))
                .andExpect(status().isForbidden())
                .andExpect(content().string(containsString("Not for your roles")));
        verify(queries, never()).team(eq("nlp"), anyInt());
    }

    @Test
    void anAdminSeesEachLocalQueuesStopPolicyWithStopOrResumeButtons() throws Exception {
        given(queries.teams(ADMIN)).willReturn(List.of("vision"));
        given(queries.team("vision", 50)).willReturn(Optional.of(withLocalQueues("vision",
                new LocalQueueView("vision-train", "lq", "vision-cq", "None"),
                new LocalQueueView("vision-train", "held", "vision-cq", "HoldAndDrain"))));

        mvc.perform(get("/teams"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("<span class=\"badge ok\">None</span>"),
                        containsString("<span class=\"badge warn\">HoldAndDrain</span>"),
                        containsString("action=\"/namespaces/vision-train/localqueues/lq/stop\""),
                        containsString("action=\"/namespaces/vision-train/localqueues/lq/stop?drain=true\""),
                        not(containsString("action=\"/namespaces/vision-train/localqueues/lq/resume\"")),
                        containsString("action=\"/namespaces/vision-train/localqueues/held/resume\""),
                        not(containsString("action=\"/namespaces/vision-train/localqueues/held/stop\"")),
                        containsString("<input type=\"hidden\" name=\"team\" value=\"vision\">"))));
    }

    @Test
    void aLeadSeesTheStopPolicyButNoButtons() throws Exception {
        given(caller.get()).willReturn(Optional.of(LEAD));
        given(queries.teams(LEAD)).willReturn(List.of("vision"));
        given(queries.team("vision", 50)).willReturn(Optional.of(withLocalQueues("vision",
                new LocalQueueView("vision-train", "lq", "vision-cq", "Hold"))));

        mvc.perform(get("/teams"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("<span class=\"badge warn\">Hold</span>"),
                        not(containsString("/localqueues/")), not(containsString("Stop and drain")))));
    }

    @Test
    void stopWithDrainAndResumeSetTheLocalQueuesStopPolicyAndRedirectToTheTeamWithANotice() throws Exception {
        given(commands.setStopPolicy(ADMIN, "vision-train", "lq", "HoldAndDrain")).willReturn(true);
        given(commands.setStopPolicy(ADMIN, "vision-train", "lq", "None")).willReturn(true);

        mvc.perform(post("/namespaces/vision-train/localqueues/lq/stop").param("drain", "true").param("team", "vision"))
                .andExpect(status().is3xxRedirection())
                .andExpect(redirectedUrl("/teams?team=vision"))
                .andExpect(flash().attribute("notice", containsString("Stopped LocalQueue vision-train/lq and drained")));
        mvc.perform(post("/namespaces/vision-train/localqueues/lq/resume").param("team", "vision"))
                .andExpect(redirectedUrl("/teams?team=vision"))
                .andExpect(flash().attribute("notice", containsString("Resumed LocalQueue vision-train/lq")));
        mvc.perform(post("/namespaces/vision-train/localqueues/gone/stop"))
                .andExpect(redirectedUrl("/teams"))
                .andExpect(flash().attribute("notice", "There is no LocalQueue vision-train/gone."));
        then(commands).should().setStopPolicy(ADMIN, "vision-train", "lq", "HoldAndDrain");
        then(commands).should().setStopPolicy(ADMIN, "vision-train", "lq", "None");
        then(commands).should().setStopPolicy(ADMIN, "vision-train", "gone", "Hold");
    }

    private static TeamView withLocalQueues(String team, LocalQueueView... localQueues) {
        return new TeamView(team, List.of("vision-train"), List.of(localQueues), List.of(), List.of(), false);
    }

    private static TeamView empty(String team) {
        return new TeamView(team, List.of(), List.of(), List.of(), List.of(), false);
    }
}
