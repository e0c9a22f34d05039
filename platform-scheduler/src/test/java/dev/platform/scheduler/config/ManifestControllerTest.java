package dev.platform.scheduler.config;

import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.Kind;
import dev.platform.scheduler.testsupport.ControllerSliceTest;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.refusal.Refusal;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.http.MediaType;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.BDDMockito.willThrow;
import static org.mockito.Mockito.never;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code POST /api/v1/manifests}: the body read as YAML or JSON by content type, each document authorized
 * for the caller before anything is applied, the submission rate charged for workloads only and not on a dry run.
 */
class ManifestControllerTest extends ControllerSliceTest {

    private static final String FLAVOR = """
            apiVersion: kueue.x-k8s.io/v1beta1
            kind: ResourceFlavor
            metadata: {name: tpu}
            """;

    private static String jobIn(String namespace) {
        return Manifests.job("train", "lq", "1", null).replace("metadata:\n", "metadata:\n  namespace: " + namespace + "\n");
    }

    @Test
    void anAdminsManifestsAreAppliedInOrderAndTheResultsAnswered() throws Exception {
        given(manifestApplication.apply(anyList(), eq(false), eq("root"))).willReturn(List.of(
                new ApplyResult("ResourceFlavor", null, "tpu", "created", List.of()),
                new ApplyResult("Job", "team-a", "train", "created", List.of("a warning"))));

        mvc.perform(post("/api/v1/manifests").contentType("application/yaml").content(FLAVOR + "---\n" + jobIn("team-a")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.dryRun").value(false))
                .andExpect(jsonPath("$.results[0].kind").value("ResourceFlavor"))
                .andExpect(jsonPath("$.results[0].action").value("created"))
                .andExpect(jsonPath("$.results[1].namespace").value("team-a"))
                .andExpect(jsonPath("$.results[1].warnings[0]").value("a warning"));

        @SuppressWarnings("unchecked")
        ArgumentCaptor<List<DecodedDocument>> documents = ArgumentCaptor.forClass(List.class);
        then(manifestApplication).should().apply(documents.capture(), eq(false), eq("root"));
        assertThat(documents.getValue()).extracting(d -> d.manifest().kind())
                .containsExactly(Kind.RESOURCE_FLAVOR, Kind.JOB);
        then(submissionRate).should().acquire("root", 1);
    }

    @Test
    void aMisspeltWorkloadIsRefusedByDefaultAndWarnedAboutWithWarnInTheAnswerAndItsHeaders() throws Exception {
        String misspelt = jobIn("team-a").replace("spec:\n  template:", "spec:\n  paralelism: 4\n  template:");
        given(manifestApplication.apply(anyList(), eq(false), eq("root"))).willReturn(List.of(
                new ApplyResult("ResourceFlavor", null, "tpu", "created", List.of()),
                new ApplyResult("Job", "team-a", "train", "created", List.of("unknown field \"spec.paralelism\""))));

        mvc.perform(post("/api/v1/manifests").contentType("application/yaml").content(FLAVOR + "---\n" + misspelt))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.errors[0].document").value(1))
                .andExpect(jsonPath("$.errors[0].path").value("spec.paralelism"));
        then(manifestApplication).shouldHaveNoInteractions();

        mvc.perform(post("/api/v1/manifests").param("fieldValidation", "Warn").contentType("application/yaml")
                        .content(FLAVOR + "---\n" + misspelt))
                .andExpect(status().isOk())
                .andExpect(header().stringValues("Warning", "299 - \"Job team-a/train: unknown field \\\"spec.paralelism\\\"\""))
                .andExpect(jsonPath("$.results[1].warnings[0]").value("unknown field \"spec.paralelism\""));
        @SuppressWarnings("unchecked")
        ArgumentCaptor<List<DecodedDocument>> documents = ArgumentCaptor.forClass(List.class);
        then(manifestApplication).should().apply(documents.capture(), eq(false), eq("root"));
        assertThat(documents.getValue().get(1).warnings())
                .containsExactly("unknown field \"spec.paralelism\"; did you mean \"parallelism\"?");
    }

    @Test
    void aDryRunIsSaidSoAndChargesNoSubmissions() throws Exception {
        given(manifestApplication.apply(anyList(), eq(true), anyString())).willReturn(List.of());

        mvc.perform(post("/api/v1/manifests").param("dryRun", "true").contentType("application/yaml").content(jobIn("team-a")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.dryRun").value(true));
        then(submissionRate).shouldHaveNoInteractions();
    }

    @Test
    void jsonIsReadAsJson() throws Exception {
        given(manifestApplication.apply(anyList(), anyBoolean(), anyString())).willReturn(List.of());

        mvc.perform(post("/api/v1/manifests").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"ResourceFlavor\",\"metadata\":{\"name\":\"tpu\"}}"))
                .andExpect(status().isOk());
        then(manifestApplication).should().apply(anyList(), eq(false), eq("root"));
    }

    @Test
    void configurationFromANonAdminIs403PerDocumentAndNothingIsApplied() throws Exception {
        callerIs(ENGINEER);

        mvc.perform(post("/api/v1/manifests").contentType("application/yaml")
                        .content(jobIn("team-a") + "---\n" + FLAVOR + "---\n" + jobIn("team-b")))
                .andExpect(status().isForbidden())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail").value("2 documents are not yours to apply; nothing was applied. An Admin"
                        + " gives a user the Admin role (POST /api/v1/users with \"clusterRole\": \"Admin\", or an identity"
                        + " provider group mapped to Admin). The demo's start-up banner lists an Admin login (user admin)."))
                .andExpect(jsonPath("$.errors[0].document").value(1))
                .andExpect(jsonPath("$.errors[0].path").value("kind"))
                .andExpect(jsonPath("$.errors[1].document").value(2))
                .andExpect(jsonPath("$.errors[1].path").value("metadata.namespace"))
                .andExpect(jsonPath("$.errors[1].message").value(containsString("namespace team-b")));
        then(manifestApplication).shouldHaveNoInteractions();
        then(submissionRate).shouldHaveNoInteractions();
    }

    @Test
    void malformedYamlIs400WithWhereItFailed() throws Exception {
        mvc.perform(post("/api/v1/manifests").contentType("application/yaml").content("kind: [unclosed"))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.title").value("Malformed manifest"))
                .andExpect(jsonPath("$.errors[0].document").value(0));
        then(manifestApplication).shouldHaveNoInteractions();
    }

    @Test
    void anUnknownContentTypeIs415() throws Exception {
        mvc.perform(post("/api/v1/manifests").contentType("application/xml").content("<a/>"))
                .andExpect(status().isUnsupportedMediaType())
                .andExpect(jsonPath("$.detail").value(containsString("use application/yaml or application/json")));
    }

    @Test
    void aBodyOverTheLimitIs413BeforeItIsParsed() throws Exception {
        byte[] body = new byte[1_048_577];
        java.util.Arrays.fill(body, (byte) '#');

        mvc.perform(post("/api/v1/manifests").contentType("application/yaml").content(body))
                .andExpect(status().isContentTooLarge())
                .andExpect(jsonPath("$.title").value("Request body too large"));
        then(manifestApplication).shouldHaveNoInteractions();
    }

    @Test
    void aRateLimitedSubmitterGetsTheLimitersProblem() throws Exception {
        willThrow(new Refusal(Refusal.Kind.TooManyRequests, "Too Many Requests", "slow down", List.of()))
                .given(submissionRate).acquire(anyString(), anyInt());

        mvc.perform(post("/api/v1/manifests").contentType("application/yaml").content(jobIn("team-a")))
                .andExpect(status().isTooManyRequests())
                .andExpect(jsonPath("$.detail").value("slow down"));
        then(manifestApplication).should(never()).apply(any(), anyBoolean(), any());
    }
}
