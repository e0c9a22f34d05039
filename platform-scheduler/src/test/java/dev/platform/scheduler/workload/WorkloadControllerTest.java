package dev.platform.scheduler.workload;

import dev.platform.api.manifest.DecodedDocument;
import dev.platform.scheduler.testsupport.ControllerSliceTest;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.web.KeysetCursor;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.http.MediaType;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.nullValue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.BDDMockito.willThrow;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Workloads over REST: a submission's 201 with Location, the rate charged before the body is read, the
 * Idempotency-Key passed on, list filters and keyset cursor, the timeline, cancel, and bad input as problems.
 */
class WorkloadControllerTest extends ControllerSliceTest {

    private static final Instant CREATED = Instant.parse("2026-01-01T10:00:00Z");

    private static WorkloadRow row(String name, Instant createdAt) {
        return new WorkloadRow(UUID.nameUUIDFromBytes(name.getBytes()), "team-a", name, "Job", "lq", "cq", null, 0,
                WorkloadState.Pending, List.of(), null, null, null, createdAt, createdAt, null, null, 0, 1, 1, null, null,
                null, null);
    }

    private static WorkloadStatus statusOf(WorkloadRow row, WorkloadState state) {
        return new WorkloadStatus(row.namespace(), row.name(), row.kind(), row.uid().toString(), row.queueName(),
                row.clusterQueue(), null, 0, state, List.of(new WorkloadStatus.PodSet("main", 1, java.util.Map.of("cpu", "1"))),
                null, List.of(new WorkloadStatus.Condition("QuotaReserved", "False", "Pending", "Waiting", row.createdAt())),
                0, 0, new WorkloadStatus.PendingReason("WaitingForQuota", "msg"), row.createdAt(), null, null, true, null,
                "root", 0, 0);
    }

    @Test
    void aSubmissionIs201AtItsLocationWithItsStatus() throws Exception {
        WorkloadRow train = row("train", CREATED);
        given(submissionWriter.submit(any(), isNull(), any())).willReturn(
                new SubmissionWriter.Answer(new WorkloadService.Submitted(train, true), null));
        given(workloadStatuses.of(train)).willReturn(statusOf(train, WorkloadState.Pending));

        mvc.perform(post("/api/v1/namespaces/team-a/workloads").contentType("application/yaml")
                        .content(Manifests.job("train", "lq", "1", null)))
                .andExpect(status().isCreated())
                .andExpect(header().string("Location", "http://localhost/api/v1/namespaces/team-a/workloads/train"))
                .andExpect(jsonPath("$.namespace").value("team-a"))
                .andExpect(jsonPath("$.uid").value(train.uid().toString()))
                .andExpect(jsonPath("$.queueName").value("lq"))
                .andExpect(jsonPath("$.state").value("Pending"))
                .andExpect(jsonPath("$.podSets[0].requests.cpu").value("1"))
                .andExpect(jsonPath("$.conditions[0].lastTransitionTime").value("2026-01-01T10:00:00Z"))
                .andExpect(jsonPath("$.positionInClusterQueue").value(0))
                .andExpect(jsonPath("$.pendingReason.code").value("WaitingForQuota"))
                .andExpect(jsonPath("$.submittedBy").value("root"))
                .andExpect(jsonPath("$.warnings").doesNotExist())
                .andExpect(header().doesNotExist("Warning"));

        ArgumentCaptor<DecodedDocument> document = ArgumentCaptor.forClass(DecodedDocument.class);
        then(submissionWriter).should().submit(document.capture(), isNull(), eq("root"));
        assertThat(document.getValue().manifest().namespace()).isEqualTo("team-a");
        then(submissionRate).should().acquire("root", 1);
    }

    /** A Job whose parallelism is misspelt: Kubernetes would run one pod instead of four. */
    private static final String MISSPELT_JOB = Manifests.job("train", "lq", "1", null)
            .replace("spec:\n  template:", "spec:\n  paralelism: 4\n  template:");

    @Test
    void aMisspeltFieldRefusesTheSubmissionUnlessWarnOrIgnoreIsAsked() throws Exception {
        WorkloadRow train = row("train", CREATED);
        given(submissionWriter.submit(any(), isNull(), any())).willReturn(
                new SubmissionWriter.Answer(new WorkloadService.Submitted(train, true), null));
        given(workloadStatuses.of(train)).willReturn(statusOf(train, WorkloadState.Pending));
        String unknown = "unknown field \"spec.paralelism\"; did you mean \"parallelism\"?";

        mvc.perform(post("/api/v1/namespaces/team-a/workloads").contentType("application/yaml").content(MISSPELT_JOB))
                .andExpect(status().isUnprocessableContent())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail").value(unknown))
                .andExpect(jsonPath("$.errors[0].document").value(0))
                .andExpect(jsonPath("$.errors[0].path").value("spec.paralelism"))
                .andExpect(jsonPath("$.errors[0].message").value(unknown));
        mvc.perform(post("/api/v1/namespaces/team-a/workloads").param("fieldValidation", "Strict")
                        .contentType("application/yaml").content(MISSPELT_JOB))
                .andExpect(status().isUnprocessableContent());
        then(submissionWriter).shouldHaveNoInteractions();

        mvc.perform(post("/api/v1/namespaces/team-a/workloads").param("fieldValidation", "warn")
                        .contentType("application/yaml").content(MISSPELT_JOB))
                .andExpect(status().isCreated())
                .andExpect(header().stringValues("Warning",
                        "299 - \"unknown field \\\"spec.paralelism\\\"; did you mean \\\"parallelism\\\"?\""))
                .andExpect(jsonPath("$.warnings.length()").value(1))
                .andExpect(jsonPath("$.warnings[0]").value(unknown))
                .andExpect(jsonPath("$.name").value("train"))
                .andExpect(jsonPath("$.state").value("Pending"));

        mvc.perform(post("/api/v1/namespaces/team-a/workloads").param("fieldValidation", "IGNORE")
                        .contentType("application/yaml").content(MISSPELT_JOB))
                .andExpect(status().isCreated())
                .andExpect(header().doesNotExist("Warning"))
                .andExpect(jsonPath("$.warnings").doesNotExist());
        then(submissionWriter).should(times(2)).submit(any(), isNull(), eq("root"));
    }

    @Test
    void anUnknownFieldValidationIs400NamingTheValues() throws Exception {
        mvc.perform(post("/api/v1/namespaces/team-a/workloads").param("fieldValidation", "strictly")
                        .contentType("application/yaml").content(MISSPELT_JOB))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail").value("fieldValidation must be one of Strict, Warn, Ignore; found 'strictly'"));
        then(workloadService).shouldHaveNoInteractions();
    }

    @Test
    void theIdempotencyKeyIsPassedOnAndABlankOneIsNone() throws Exception {
        WorkloadRow train = row("train", CREATED);
        given(submissionWriter.submit(any(), any(), any())).willReturn(
                new SubmissionWriter.Answer(new WorkloadService.Submitted(train, false), null));
        given(workloadStatuses.of(train)).willReturn(statusOf(train, WorkloadState.Pending));

        mvc.perform(post("/api/v1/namespaces/team-a/workloads").contentType("application/yaml")
                        .header("Idempotency-Key", "retry-1").content(Manifests.job("train", "lq", "1", null)))
                .andExpect(status().isCreated())
                .andExpect(header().string("Location", "http://localhost/api/v1/namespaces/team-a/workloads/train"));
        mvc.perform(post("/api/v1/namespaces/team-a/workloads").contentType("application/yaml")
                        .header("Idempotency-Key", "  ").content(Manifests.job("train", "lq", "1", null)))
                .andExpect(status().isCreated());
        then(submissionWriter).should().submit(any(), eq("retry-1"), eq("root"));
        then(submissionWriter).should().submit(any(), isNull(), eq("root"));
    }

    @Test
    void aRateLimitedSubmissionIs429WithRetryAfterAndIsNotRead() throws Exception {
        willThrow(Refusal.tooManyRequests("root submits too fast", java.time.Duration.ofSeconds(3))).given(submissionRate).acquire("root", 1);

        mvc.perform(post("/api/v1/namespaces/team-a/workloads").contentType("application/yaml").content("kind: [broken"))
                .andExpect(status().isTooManyRequests())
                .andExpect(header().string("Retry-After", "3"))
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.title").value("Too Many Requests"));
        then(submissionWriter).shouldHaveNoInteractions();
    }

    @Test
    void aMalformedSubmissionIs400AndADuplicateTheServices409() throws Exception {
        mvc.perform(post("/api/v1/namespaces/team-a/workloads").contentType("application/yaml").content("kind: [broken"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.title").value("Malformed manifest"));
        then(submissionWriter).shouldHaveNoInteractions();

        given(submissionWriter.submit(any(), any(), any())).willThrow(Refusal.conflict("Job \"team-a/train\" exists",
                List.of()));
        mvc.perform(post("/api/v1/namespaces/team-a/workloads").contentType("application/yaml")
                        .content(Manifests.job("train", "lq", "1", null)))
                .andExpect(status().isConflict())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail").value("Job \"team-a/train\" exists"));
    }

    @Test
    void aListPassesItsFiltersAndCursorAndHandsOutTheNext() throws Exception {
        WorkloadRow newer = row("newer", CREATED.plusSeconds(10));
        WorkloadRow older = row("older", CREATED);
        KeysetCursor<UUID> after = new KeysetCursor<>(CREATED.plusSeconds(60), UUID.randomUUID());
        given(workloadStore.list(List.of("team-a"), WorkloadState.Pending, "lq", after, 2)).willReturn(List.of(newer, older));
        given(workloadStatuses.of(List.of(newer))).willReturn(List.of(statusOf(newer, WorkloadState.Pending)));

        mvc.perform(get("/api/v1/namespaces/team-a/workloads").param("state", "Pending").param("queue", "lq")
                        .param("cursor", after.encode()).param("limit", "1"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items.length()").value(1))
                .andExpect(jsonPath("$.items[0].name").value("newer"))
                .andExpect(jsonPath("$.next").value(new KeysetCursor<>(newer.createdAt(), newer.uid()).encode()));
    }

    @Test
    void theLastPageSaysNextIsNull() throws Exception {
        WorkloadRow only = row("only", CREATED);
        given(workloadStore.list(List.of("team-a"), WorkloadState.Finished, null, null, 3)).willReturn(List.of(only));
        given(workloadStatuses.of(List.of(only))).willReturn(List.of(statusOf(only, WorkloadState.Finished)));

        mvc.perform(get("/api/v1/namespaces/team-a/workloads").param("state", "Finished").param("limit", "2"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items.length()").value(1))
                .andExpect(jsonPath("$.next").value(nullValue()));
    }

    @Test
    void aBadStateLimitOrCursorIs400() throws Exception {
        mvc.perform(get("/api/v1/namespaces/team-a/workloads").param("state", "Sleeping"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value(containsString("state must be one of [Pending, Admitted")));
        mvc.perform(get("/api/v1/namespaces/team-a/workloads").param("limit", "501"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value("limit must be between 1 and 500"));
        mvc.perform(get("/api/v1/namespaces/team-a/workloads").param("cursor", "garbage!"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value("cursor is not one this API issued"));
        then(workloadStore).should(never()).list(anyString(), any(), any(), any(), anyInt());
        then(workloadStatuses).should(never()).of(anyList());
    }

    @Test
    void aWorkloadItsTimelineOrA404() throws Exception {
        WorkloadRow train = row("train", CREATED);
        given(workloadStore.find("team-a", "train")).willReturn(Optional.of(train));
        given(workloadStore.find("team-a", "absent")).willReturn(Optional.empty());
        given(workloadStore.events(train.uid())).willReturn(List.of(
                new WorkloadStore.WorkloadEvent(1, CREATED, "QuotaReserved", "False", "Pending", "Waiting")));

        mvc.perform(get("/api/v1/namespaces/team-a/workloads/train/events"))
                .andExpect(status().isOk())
                .andExpect(content().json("""
                        {"items":[{"id":1,"at":"2026-01-01T10:00:00Z","type":"QuotaReserved","status":"False",
                                   "reason":"Pending","message":"Waiting"}]}""", true));
        for (String path : List.of("/api/v1/namespaces/team-a/workloads/absent",
                "/api/v1/namespaces/team-a/workloads/absent/events")) {
            mvc.perform(get(path))
                    .andExpect(status().isNotFound())
                    .andExpect(jsonPath("$.detail").value("Workload \"team-a/absent\" not found"));
        }
    }

    @Test
    void aCancelAnswersTheFinishedStatusAndNamesTheCaller() throws Exception {
        callerIs(OPS);
        WorkloadRow train = row("train", CREATED);
        given(workloadService.cancel("team-a", "train", "ops")).willReturn(train);
        given(workloadStatuses.of(train)).willReturn(statusOf(train, WorkloadState.Finished));

        mvc.perform(delete("/api/v1/namespaces/team-a/workloads/train"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.state").value("Finished"));
    }
}
