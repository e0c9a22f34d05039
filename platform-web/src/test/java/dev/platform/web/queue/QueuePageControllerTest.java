package dev.platform.web.queue;

import dev.platform.api.reason.PendingReason;
import dev.platform.web.console.ForecastView;
import dev.platform.web.console.PodSetPlacement;
import dev.platform.web.queue.QueueQueries.AdmittedRow;
import dev.platform.web.queue.QueueQueries.PendingRow;
import dev.platform.web.queue.QueueQueries.PriorityOnlyRow;
import dev.platform.web.queue.QueueQueries.QueuePage;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.platform.web.console.ConsoleFixtures.ADMIN;
import static dev.platform.web.console.ConsoleFixtures.NOW;
import static dev.platform.web.console.ConsoleFixtures.T0;
import static dev.platform.web.console.ConsoleFixtures.trainingQueue;
import static org.hamcrest.Matchers.allOf;
import static org.mockito.BDDMockito.then;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.flash;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(QueuePageController.class)
class QueuePageControllerTest {

    @Autowired
    MockMvc mvc;

    @MockitoBean
    QueueQueries queries;

    @MockitoBean
    QueueCommands commands;

    @Test
    void listsPendingInQueueOrderWithPositionsWaitingAndReasonAndAdmittedWithFlavorsAndPools() throws Exception {
        given(queries.clusterQueue(ADMIN, "tpu-training-cq", 0, 100)).willReturn(Optional.of(new QueuePage(trainingQueue(),
                List.of(new PendingRow("default", "low-jax-trillium", "default-queue", "low-priority-job", 1000000, 0, 0,
                                NOW.minus(Duration.ofMinutes(125)), PendingReason.WaitingForQuota,
                                "insufficient unused quota for google.com/tpu in flavor tpu-v6e-slice, 32 more needed",
                                new ForecastView(NOW.plus(Duration.ofMinutes(25)), NOW.plus(Duration.ofMinutes(10)),
                                        NOW.plus(Duration.ofMinutes(50)), "LocalQueueHistory",
                                        "after 1 workload in its cohort finish", NOW, false,
                                        NOW.plus(Duration.ofMinutes(5)), "ArrivalHistory"), "alice"),
                        new PendingRow("team-b", "second", "lq-b", null, 10, 1, 0, NOW.minusSeconds(42), null, null,
                                new ForecastView(null, null, null, "NeverFits", "never admitted as things stand: "
                                        + "the pod set asks for 64, more than the ClusterQueue can ever give "
                                        + "(maximum capacity 32: its nominal quota plus what it may borrow)", NOW, true), null)),
                List.of(new AdmittedRow("default", "high-jax-trillium", "default-queue", 2000000, "Running", T0,
                        List.of(new PodSetPlacement("slice", 8, Map.of("google.com/tpu", "tpu-v6e-slice"),
                                Map.of("google.com/tpu", "32"), List.of("pool-a", "pool-b"))))))));

        mvc.perform(get("/queues/tpu-training-cq"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("ClusterQueue <span>tpu-training-cq</span>"), containsString("32 of 32"),
                        containsString("1 pending, 1 admitted"),
                        containsString("href=\"/namespaces/default/workloads/low-jax-trillium\""),
                        containsString("<td>low-priority-job (1000000)</td>"), containsString("<td>alice</td>"),
                        containsString("<td>10</td>"), containsString("<td>unknown</td>"),
                        containsString("Waiting for quota to free up"), containsString("WaitingForQuota"),
                        containsString("32 more needed"), containsString(">2 h 5 min ago</time>"),
                        containsString(">just now</time>"),
                        containsString("starts in about 25 min (range 10-50 min)"),
                        containsString("if nothing new arrives: in about 5 min"),
                        containsString("based on runtimes of similar workloads"),
                        containsString("Never, as things stand"), containsString("maximum capacity 32:"),
                        containsString(">stale</span>"),
                        containsString("Waiting for the scheduler"),
                        containsString("google.com/tpu in tpu-v6e-slice (32)"), containsString("slice × 8"),
                        containsString("node pools: pool-a, pool-b"), containsString("Running"),
                        containsString("action=\"/queues/tpu-training-cq/stop\""),
                        containsString("action=\"/queues/tpu-training-cq/stop?drain=true\""),
                        not(containsString("Resume queue")))))
                .andExpect(content().string(matchesPattern(
                        "(?s).*<td class=\"num\">0</td>\\s*<td class=\"num\">0</td>\\s*<th scope=\"row\"><a[^>]*>default/low-jax-trillium.*"
                                + "<td class=\"num\">1</td>\\s*<td class=\"num\">0</td>\\s*<th scope=\"row\"><a[^>]*>team-b/second.*")));
    }

    @Test
    void listsTheClusterQueuesAdmissionChecksWithTheirControllersFlavorsAndClass() throws Exception {
        var queue = new dev.platform.web.console.QueueUsageView("cq", null, "BestEffortFIFO", true, "Ready", List.of(), 0, 0);
        given(queries.clusterQueue(ADMIN, "cq", 0, 100)).willReturn(Optional.of(new QueuePage(queue, List.of(),
                List.of(), List.of(new QueueQueries.AdmissionCheckRow("dws", "kueue.x-k8s.io/provisioning-request",
                                List.of("flex"), "queued-provisioning.gke.io"),
                        new QueueQueries.AdmissionCheckRow("approval", null, List.of(), null)))));

        mvc.perform(get("/queues/cq"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("Admission checks"),
                        containsString("<th scope=\"row\">dws</th>"),
                        containsString("kueue.x-k8s.io/provisioning-request"), containsString("<td>flex</td>"),
                        containsString("queued-provisioning.gke.io"),
                        containsString("no such AdmissionCheck: its workloads wait"),
                        containsString("<td>every flavor</td>"))));
    }

    @Test
    void linksToTheNextPageOfPendingWhileMoreWait() throws Exception {
        List<PendingRow> page = java.util.stream.IntStream.range(100, 200)
                .mapToObj(i -> new PendingRow("ns", "w" + i, "lq", null, 0, i, i, T0, PendingReason.Blocked, null, null, null))
                .toList();
        var queue = new dev.platform.web.console.QueueUsageView("cq", null, "StrictFIFO", true, "Ready", List.of(), 250, 0);
        given(queries.clusterQueue(ADMIN, "cq", 100, 100)).willReturn(Optional.of(new QueuePage(queue, page, List.of())));

        mvc.perform(get("/queues/cq").param("offset", "100"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("href=\"/queues/cq?offset=0\""),
                        containsString("href=\"/queues/cq?offset=200\""),
                        containsString("Blocked behind the head of a StrictFIFO queue"),
                        containsString("Nothing holds quota here."))));
    }

    @Test
    void aWorkloadThatCanNeverRunShowsNoPosition() throws Exception {
        var queue = new dev.platform.web.console.QueueUsageView("cq", null, "BestEffortFIFO", true, "Ready", List.of(), 2, 0);
        given(queries.clusterQueue(ADMIN, "cq", 0, 100)).willReturn(Optional.of(new QueuePage(queue, List.of(
                new PendingRow("ns", "small", "lq", null, 0, 0, 0, T0, PendingReason.WaitingForQuota, null, null, null),
                new PendingRow("ns", "huge", "lq", null, 0, null, null, T0, PendingReason.ExceedsMaxQuota, null, null, null),
                PendingRow.hidden(null)), List.of())));

        mvc.perform(get("/queues/cq"))
                .andExpect(status().isOk())
                .andExpect(content().string(matchesPattern("(?s).*<td class=\"num\">0</td>\\s*<td class=\"num\">0</td>"
                        + "\\s*<th scope=\"row\"><a[^>]*>ns/small.*<td class=\"num\" title=\"no position: it cannot be"
                        + " admitted until the configuration changes\">—</td>\\s*<td class=\"num\">—</td>\\s*"
                        + "<th scope=\"row\"><a[^>]*>ns/huge.*<td class=\"num\">—</td>\\s*<td class=\"num\">—</td>\\s*"
                        + "<td colspan=\"7\">1 workload of another team.*")));
    }

    @Test
    void unknownQueueIsNotFound() throws Exception {
        given(queries.clusterQueue(ADMIN, "nope", 0, 100)).willReturn(Optional.empty());

        mvc.perform(get("/queues/nope"))
                .andExpect(status().isNotFound())
                .andExpect(content().string(containsString("ClusterQueue nope")));
    }

    @Test
    void listsTheWorkloadsWithoutAQueueWithTheirPoolsOrWhyTheyWait() throws Exception {
        given(queries.clusterQueueNames(ADMIN)).willReturn(List.of());
        given(queries.priorityOnly(ADMIN, 100)).willReturn(List.of(
                new PriorityOnlyRow("default", "high-jax-trillium", "high-priority-job", 2000000, "Running", null, null,
                        List.of(new PodSetPlacement("slice", 8, Map.of(), Map.of("google.com/tpu", "32"),
                                List.of("sim-v6e-4x4-2", "sim-v6e-4x4-3")))),
                new PriorityOnlyRow("default", "low-second", "low-priority-job", 1000000, "Pending",
                        PendingReason.WaitingForNodePool, "couldn't place the workload: pod set slice needs 2 free healthy node pool(s)",
                        List.of())));

        mvc.perform(get("/queues"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("Without a queue (priority-only mode)"),
                        containsString("href=\"/namespaces/default/workloads/high-jax-trillium\""),
                        containsString("sim-v6e-4x4-3"), containsString("high-priority-job"),
                        containsString("href=\"/namespaces/default/workloads/low-second\""),
                        containsString("pod set slice needs 2 free healthy node pool(s)"),
                        containsString("Waiting for a free node pool"), not(containsString("Quota is free")),
                        not(containsString("The 100 highest priorities are shown.")))));
    }

    @Test
    void listsTheQueuesToPickFrom() throws Exception {
        given(queries.clusterQueueNames(ADMIN)).willReturn(List.of("a-cq", "b-cq"));

        mvc.perform(get("/queues"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("href=\"/queues/a-cq\""),
                        containsString("href=\"/queues/b-cq\""), containsString("aria-current=\"page\">Queues"),
                        not(containsString("aria-current=\"page\">Overview")))));
    }

    @Test
    void otherTeamsWorkloadsAreCountedAtTheirPositionsWithoutNames() throws Exception {
        given(queries.clusterQueue(ADMIN, "tpu-training-cq", 0, 100)).willReturn(Optional.of(new QueuePage(trainingQueue(),
                List.of(PendingRow.hidden(0), PendingRow.hidden(1),
                        new PendingRow("vision-train", "mine", "lq", null, 5, 2, 0, NOW.minus(Duration.ofMinutes(3)),
                                PendingReason.WaitingForQuota, null, null, null),
                        PendingRow.hidden(3)),
                List.of(AdmittedRow.hidden(), AdmittedRow.hidden()))));

        mvc.perform(get("/queues/tpu-training-cq"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        matchesPattern("(?s).*<td class=\"num\">0–1</td>\\s*<td class=\"num\">—</td>\\s*"
                                + "<td colspan=\"7\">2 workloads of other teams</td>.*"
                                + "vision-train/mine.*<td class=\"num\">3</td>\\s*<td class=\"num\">—</td>\\s*"
                                + "<td colspan=\"7\">1 workload of another team</td>.*"
                                + "<td colspan=\"6\">2 workloads of other teams</td>.*"),
                        not(containsString("href=\"/namespaces/null")))));
    }

    @Test
    void stopWithDrainAndResumeSetTheStopPolicyAndRedirectBackWithANotice() throws Exception {
        given(commands.setStopPolicy(ADMIN, "tpu-training-cq", "HoldAndDrain")).willReturn(true);
        given(commands.setStopPolicy(ADMIN, "tpu-training-cq", "None")).willReturn(true);

        mvc.perform(post("/queues/tpu-training-cq/stop").param("drain", "true"))
                .andExpect(status().is3xxRedirection())
                .andExpect(redirectedUrl("/queues/tpu-training-cq"))
                .andExpect(flash().attribute("notice", containsString("drained")));
        mvc.perform(post("/queues/tpu-training-cq/resume"))
                .andExpect(flash().attribute("notice", containsString("Resumed tpu-training-cq")));
        then(commands).should().setStopPolicy(ADMIN, "tpu-training-cq", "HoldAndDrain");
        then(commands).should().setStopPolicy(ADMIN, "tpu-training-cq", "None");
    }
}
