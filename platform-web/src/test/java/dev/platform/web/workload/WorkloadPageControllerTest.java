package dev.platform.web.workload;

import dev.platform.api.reason.PendingReason;
import dev.platform.web.console.ForecastView;
import dev.platform.web.console.PodSetPlacement;
import dev.platform.web.console.LostWorkView;
import dev.platform.web.console.PreemptionView;
import dev.platform.web.workload.WorkloadCommands.Cancellation;
import dev.platform.web.workload.WorkloadQueries.ConditionView;
import dev.platform.web.workload.WorkloadQueries.EventView;
import dev.platform.web.workload.WorkloadQueries.PodSetView;
import dev.platform.web.workload.WorkloadQueries.WorkloadDetail;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.platform.web.console.ConsoleFixtures.ADMIN;
import static dev.platform.web.console.ConsoleFixtures.NOW;
import static dev.platform.web.console.ConsoleFixtures.T0;
import static dev.platform.web.console.ConsoleFixtures.preemption;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.flash;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(WorkloadPageController.class)
class WorkloadPageControllerTest {

    static final String MANIFEST = """
            {"kind": "JobSet", "spec": {"replicatedJobs": [{"name": "slice", "replicas": 2}]},
             "metadata": {"name": "low-jax-trillium", "annotations": {"kueue.x-k8s.io/queue-name": "default-queue"}},
             "apiVersion": "jobset.x-k8s.io/v1alpha2"}""";

    @Autowired
    MockMvc mvc;

    @MockitoBean
    WorkloadQueries queries;

    @MockitoBean
    WorkloadCommands commands;

    @Test
    void showsPositionReasonPodSetsConditionsTimelinePreemptionsAndTheManifestAsYaml() throws Exception {
        given(queries.workload(ADMIN, "default", "low-jax-trillium")).willReturn(Optional.of(pending()));

        mvc.perform(get("/namespaces/default/workloads/low-jax-trillium"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("JobSet</span> <span>default/low-jax-trillium"),
                        containsString("0 in the ClusterQueue, 0 in the LocalQueue"),
                        containsString("Waiting for quota to free up"), containsString("32 more needed"),
                        containsString("Expected to start"),
                        containsString("starts in about 25 min (range 10-50 min)"),
                        containsString("title=\"2026-03-01 11:10:00 UTC\">if nothing new arrives: in about 10 min</time>"),
                        containsString("title=\"2026-03-01 11:25:00 UTC (range 2026-03-01 11:10:00 UTC to 2026-03-01 11:50:00 UTC)\""),
                        containsString("based on runtimes of similar workloads"),
                        containsString("after 2 workloads in its cohort finish"), containsString("computed"),
                        containsString(">30 s ago</time>"),
                        containsString("<time datetime=\"2026-03-01T10:00:00Z\" title=\"2026-03-01 10:00:00 UTC\">1 h ago</time>"),
                        containsString("low-priority-job (1000000)"), containsString("<dd>alice</dd>"),
                        containsString("google.com/tpu: 4"), containsString("Not admitted."),
                        containsString("<th scope=\"row\">QuotaReserved</th><td>False</td>"),
                        containsString("QuotaReserved=False"), containsString("Waiting for the scheduler"),
                        containsString("default/high-jax-trillium"),
                        containsString("kind: JobSet"), containsString("  replicatedJobs:\n  - name: slice\n    replicas: 2"),
                        containsString("    kueue.x-k8s.io/queue-name: default-queue"),
                        containsString("method=\"post\""),
                        containsString("action=\"/namespaces/default/workloads/low-jax-trillium/cancel\""),
                        containsString("Cancel workload"),
                        containsString("action=\"/namespaces/default/workloads/low-jax-trillium/stop\""),
                        not(containsString("Resume workload")))));
    }

    @Test
    void timesWrittenInMessagesReadAsEveryConsoleTimeDoes() throws Exception {
        WorkloadDetail w = pending();
        String backingOff = "Requeued 2 time(s); backing off until 2026-03-01T11:05:00Z";
        given(queries.workload(ADMIN, "default", "requeued")).willReturn(Optional.of(new WorkloadDetail(w.namespace(),
                "requeued", w.kind(), w.uid(), w.queueName(), w.clusterQueue(), w.priorityClassName(), w.priority(),
                "Pending", null, null, PendingReason.WaitingForQuota, backingOff, T0, null, w.podSets(), List.of(),
                List.of(new ConditionView("Requeued", "False", "Backoff", backingOff, T0)),
                List.of(new EventView(T0, "Evicted", "True", "JobSetMissing", "the cluster acknowledged it at"
                        + " 2026-03-01T10:00:00.250Z and its full report at 2026-03-01T10:59:00Z no longer has it")),
                List.of(), MANIFEST, null, true, null, null)));

        mvc.perform(get("/namespaces/default/workloads/requeued"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("backing off until <time datetime=\"2026-03-01T11:05:00Z\""
                                + " title=\"2026-03-01 11:05:00 UTC\">in about 5 min</time>"),
                        containsString("acknowledged it at <time datetime=\"2026-03-01T10:00:00.250Z\""
                                + " title=\"2026-03-01 10:00:00.250 UTC\">1 h ago</time> and its full report at"
                                + " <time datetime=\"2026-03-01T10:59:00Z\" title=\"2026-03-01 10:59:00 UTC\">1 min ago</time>"
                                + " no longer has it"),
                        not(containsString("until 2026-03-01T11:05:00Z")), not(containsString("at 2026-03-01T10:59:00Z")))));
    }

    @Test
    void showsTheAdmissionWithFlavorsAndNoCancelButtonOnceFinished() throws Exception {
        WorkloadDetail w = pending();
        given(queries.workload(ADMIN, "default", "done")).willReturn(Optional.of(new WorkloadDetail(w.namespace(), "done",
                w.kind(), w.uid(), w.queueName(), w.clusterQueue(), w.priorityClassName(), w.priority(), "Finished",
                null, null, null, null, T0, T0.plusSeconds(5), w.podSets(),
                List.of(new PodSetPlacement("slice", 8, Map.of("google.com/tpu", "tpu-v6e-slice"),
                        Map.of("google.com/tpu", "32"), List.of())),
                w.conditions(), w.events(), List.of(), MANIFEST, null, true, null, null)));

        mvc.perform(get("/namespaces/default/workloads/done"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("google.com/tpu in tpu-v6e-slice (32)"),
                        containsString("None, as preemptor or as victim."), not(containsString("Cancel workload")),
                        containsString("<dd>unknown</dd>"),
                        not(containsString("Why it waits")))));
    }

    @Test
    void showsTheRequeueStateOfAWorkloadBackingOffAndMarksAnInactiveOne() throws Exception {
        WorkloadDetail w = pending();
        given(queries.workload(ADMIN, "default", "stuck")).willReturn(Optional.of(withRequeue(w, "stuck", true,
                new WorkloadQueries.RequeueView(2, NOW.plusSeconds(120)))));
        given(queries.workload(ADMIN, "default", "off")).willReturn(Optional.of(withRequeue(w, "off", false,
                new WorkloadQueries.RequeueView(3, null))));

        mvc.perform(get("/namespaces/default/workloads/stuck"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("Requeued"), containsString("2 time(s)"),
                        containsString("backing off until"), not(containsString("Inactive")))));
        mvc.perform(get("/namespaces/default/workloads/off"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("3 time(s)"), containsString("Inactive"),
                        not(containsString("backing off until")))));
    }

    private static WorkloadDetail withRequeue(WorkloadDetail w, String name, boolean active,
                                              WorkloadQueries.RequeueView requeue) {
        return new WorkloadDetail(w.namespace(), name, w.kind(), w.uid(), w.queueName(), w.clusterQueue(),
                w.priorityClassName(), w.priority(), w.state(), w.positionInClusterQueue(), w.positionInLocalQueue(),
                w.pendingReason(), w.pendingMessage(), w.createdAt(), w.admittedAt(), w.podSets(), w.admission(),
                w.conditions(), w.events(), w.preemptions(), w.manifestJson(), w.forecast(), active, requeue,
                w.submittedBy());
    }

    @Test
    void cancelCallsTheServiceAndRedirectsBackWithANotice() throws Exception {
        given(commands.cancel(ADMIN, "default", "low-jax-trillium")).willReturn(Cancellation.CANCELLED);

        mvc.perform(post("/namespaces/default/workloads/low-jax-trillium/cancel"))
                .andExpect(status().is3xxRedirection())
                .andExpect(redirectedUrl("/namespaces/default/workloads/low-jax-trillium"))
                .andExpect(flash().attribute("notice", containsString("Cancelled default/low-jax-trillium")));
        then(commands).should().cancel(ADMIN, "default", "low-jax-trillium");
    }

    @Test
    void stopAndResumeCallTheServiceAndRedirectBackWithANotice() throws Exception {
        given(commands.setActive(ADMIN, "default", "low-jax-trillium", false)).willReturn(Cancellation.CANCELLED);
        given(commands.setActive(ADMIN, "default", "low-jax-trillium", true)).willReturn(Cancellation.CANCELLED);

        mvc.perform(post("/namespaces/default/workloads/low-jax-trillium/stop"))
                .andExpect(status().is3xxRedirection())
                .andExpect(redirectedUrl("/namespaces/default/workloads/low-jax-trillium"))
                .andExpect(flash().attribute("notice", containsString("Stopped default/low-jax-trillium")));
        mvc.perform(post("/namespaces/default/workloads/low-jax-trillium/resume"))
                .andExpect(status().is3xxRedirection())
                .andExpect(flash().attribute("notice", containsString("Resumed default/low-jax-trillium")));
        then(commands).should().setActive(ADMIN, "default", "low-jax-trillium", false);
        then(commands).should().setActive(ADMIN, "default", "low-jax-trillium", true);
    }

    @Test
    void showsEachAdmissionCheckWithItsStateMessageAndTime() throws Exception {
        WorkloadDetail w = pending();
        given(queries.workload(ADMIN, "default", "flex")).willReturn(Optional.of(new WorkloadDetail(w.namespace(),
                "flex", w.kind(), w.uid(), w.queueName(), w.clusterQueue(), w.priorityClassName(), w.priority(),
                "Admitted", null, null, null, "waiting for admission checks", T0,
                null, w.podSets(), List.of(), w.conditions(), w.events(), List.of(), MANIFEST, null, true, null, null,
                null, List.of(new WorkloadQueries.AdmissionCheckView("dws", "Pending",
                        "capacity expected within 5s", T0.plusSeconds(3)),
                        new WorkloadQueries.AdmissionCheckView("budget", "Ready", "within budget", T0)))));

        mvc.perform(get("/namespaces/default/workloads/flex"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("Admission checks"),
                        containsString("<th scope=\"row\">dws</th><td>Pending</td>"),
                        containsString("capacity expected within 5s"),
                        containsString("<th scope=\"row\">budget</th><td>Ready</td>"),
                        containsString("datetime=\"" + T0.plusSeconds(3) + "\""))));
    }

    @Test
    void aWorkloadWithoutChecksShowsNoChecksSection() throws Exception {
        given(queries.workload(ADMIN, "default", "low-jax-trillium")).willReturn(Optional.of(pending()));

        mvc.perform(get("/namespaces/default/workloads/low-jax-trillium"))
                .andExpect(status().isOk())
                .andExpect(content().string(not(containsString("Admission checks"))));
    }

    @Test
    void aStoppedWorkloadOffersResume() throws Exception {
        WorkloadDetail w = pending();
        given(queries.workload(ADMIN, "default", "stopped")).willReturn(Optional.of(new WorkloadDetail(w.namespace(),
                "stopped", w.kind(), w.uid(), w.queueName(), w.clusterQueue(), w.priorityClassName(), w.priority(),
                "Pending", null, null, PendingReason.Deactivated, "The workload is deactivated", T0, null, w.podSets(), List.of(),
                w.conditions(), w.events(), List.of(), MANIFEST, null, false, null, null)));

        mvc.perform(get("/namespaces/default/workloads/stopped"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("Resume workload"),
                        containsString("action=\"/namespaces/default/workloads/stopped/resume\""),
                        not(containsString("Stop workload")))));
    }

    /** The victim's page, where the preemptor belongs to another team: said so, with its priority and no link. */
    @Test
    void aPreemptionByAnotherTeamsWorkloadIsSaidSoAndIsNoLink() throws Exception {
        WorkloadDetail w = pending();
        PreemptionView own = preemption(7, "low-jax-trillium");
        PreemptionView byAnotherTeam = new PreemptionView(7, own.at(), own.reason(), own.message(),
                new PreemptionView.Party(null, null, "u-theirs", null, 2000000), own.victim());
        given(queries.workload(ADMIN, "default", "victim")).willReturn(Optional.of(new WorkloadDetail(w.namespace(),
                "victim", w.kind(), w.uid(), w.queueName(), w.clusterQueue(), w.priorityClassName(), w.priority(),
                w.state(), w.positionInClusterQueue(), w.positionInLocalQueue(), w.pendingReason(), w.pendingMessage(),
                w.createdAt(), w.admittedAt(), w.podSets(), w.admission(), w.conditions(), w.events(),
                List.of(byAnotherTeam), w.manifestJson(), w.forecast(), true, null, w.submittedBy())));

        mvc.perform(get("/namespaces/default/workloads/victim"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("another team's workload"), containsString("2000000"),
                        not(containsString("null/null")), not(containsString("/namespaces//workloads/")))));
    }

    @Test
    void aWorkloadWithinItsMinimumRuntimeSaysUntilWhenItIsProtectedAndAPreemptionItsLostWork() throws Exception {
        WorkloadDetail w = pending();
        PreemptionView p = preemption(7, "low-jax-trillium");
        PreemptionView lost = new PreemptionView(p.id(), p.at(), p.reason(), p.message(), p.preemptor(), p.victim(),
                new LostWorkView(T0.minusSeconds(7200), Map.of("google.com/tpu", 8 * 7200.0)));
        Instant until = T0.plusSeconds(1200);
        given(queries.workload(ADMIN, "default", "protected")).willReturn(Optional.of(new WorkloadDetail(w.namespace(),
                "protected", w.kind(), w.uid(), w.queueName(), w.clusterQueue(), w.priorityClassName(), w.priority(),
                "Running", null, null, null, null, w.createdAt(), T0.minusSeconds(600), w.podSets(), w.admission(),
                w.conditions(), w.events(), List.of(lost), w.manifestJson(), null, true, null, w.submittedBy(),
                until)));

        mvc.perform(get("/namespaces/default/workloads/protected"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("protected from preemption until"),
                        containsString("datetime=\"" + until + "\""), containsString("google.com/tpu 16.00 chip-hours"),
                        containsString("datetime=\"" + T0.minusSeconds(7200) + "\""))));
    }

    @Test
    void aWorkloadNotProtectedSaysNothingOfAMinimumRuntime() throws Exception {
        given(queries.workload(ADMIN, "default", "low-jax-trillium")).willReturn(Optional.of(pending()));

        mvc.perform(get("/namespaces/default/workloads/low-jax-trillium"))
                .andExpect(status().isOk())
                .andExpect(content().string(not(containsString("protected from preemption"))));
    }

    @Test
    void unknownWorkloadIsNotFound() throws Exception {
        given(queries.workload(ADMIN, "default", "nope")).willReturn(Optional.empty());

        mvc.perform(get("/namespaces/default/workloads/nope"))
                .andExpect(status().isNotFound())
                .andExpect(content().string(containsString("Workload default/nope")));
    }

    private static WorkloadDetail pending() {
        return new WorkloadDetail("default", "low-jax-trillium", "JobSet", "u-low", "default-queue", "tpu-training-cq",
                "low-priority-job", 1000000, "Pending", 0, 0, PendingReason.WaitingForQuota,
                "insufficient unused quota for google.com/tpu in flavor tpu-v6e-slice, 32 more needed", T0, null,
                List.of(new PodSetView("slice", 8, Map.of("google.com/tpu", "4"))), List.of(),
                List.of(new ConditionView("QuotaReserved", "False", "Pending", "Waiting for the scheduler", T0)),
                List.of(new EventView(T0, "QuotaReserved", "False", "Pending", "Waiting for the scheduler")),
                List.of(preemption(7, "low-jax-trillium")), MANIFEST,
                new ForecastView(NOW.plusSeconds(25 * 60), NOW.plusSeconds(10 * 60), NOW.plusSeconds(50 * 60),
                        "LocalQueueHistory", "after 2 workloads in its cohort finish", NOW.minusSeconds(30), false,
                        NOW.plusSeconds(10 * 60), "ArrivalHistory"),
                true, null, "alice");
    }
}
