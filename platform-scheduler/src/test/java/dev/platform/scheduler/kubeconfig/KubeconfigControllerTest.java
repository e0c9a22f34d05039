package dev.platform.scheduler.kubeconfig;

import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.testsupport.ControllerSliceTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The kubeconfig endpoints over HTTP: a YAML file to save, the request's host and fields passed on. */
class KubeconfigControllerTest extends ControllerSliceTest {

    @Test
    void aKubeconfigIsAYamlAttachmentForTheRequestsHost() throws Exception {
        callerIs(ENGINEER);
        given(kubeconfigs.issue(ENGINEER, "ci", Duration.ofSeconds(600), "platform.example.com"))
                .willReturn("apiVersion: v1\nkind: Config\n");

        mvc.perform(post("/api/v1/kubeconfig").with(request -> {
                    request.setServerName("platform.example.com");
                    return request;
                }).contentType(MediaType.APPLICATION_JSON).content("{\"description\":\"ci\",\"expiresInSeconds\":600}"))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith("application/yaml"))
                .andExpect(header().string("Content-Disposition", "attachment; filename=\"platform.kubeconfig\""))
                .andExpect(header().string("Cache-Control", "no-store"))
                .andExpect(content().string("apiVersion: v1\nkind: Config\n"));
    }

    @Test
    void noBodyTakesTheDefaults() throws Exception {
        given(kubeconfigs.issue(any(), isNull(), isNull(), any())).willReturn("kind: Config\n");

        mvc.perform(post("/api/v1/kubeconfig")).andExpect(status().isOk());
    }

    @Test
    void withoutHttpsTheRefusalIsAConflictSayingWhy() throws Exception {
        given(kubeconfigs.issue(any(), any(), any(), any())).willThrow(Refusal.conflict(
                "the scheduler serves no HTTPS", List.of()));

        mvc.perform(post("/api/v1/kubeconfig"))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail").value("the scheduler serves no HTTPS"));
    }

    @Test
    void theAuthorityIsAPemFileOrNotFound() throws Exception {
        given(kubeconfigs.authorityPem()).willReturn(Optional.of("-----BEGIN CERTIFICATE-----\n"));
        mvc.perform(get("/api/v1/kubeconfig/ca.crt"))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith("application/x-pem-file"))
                .andExpect(content().string("-----BEGIN CERTIFICATE-----\n"));

        given(kubeconfigs.authorityPem()).willReturn(Optional.empty());
        mvc.perform(get("/api/v1/kubeconfig/ca.crt"))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("platform.tls.certificate-authority")));
    }
}
