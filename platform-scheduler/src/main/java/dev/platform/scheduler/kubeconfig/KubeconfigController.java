package dev.platform.scheduler.kubeconfig;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.web.KubernetesYaml;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.time.Duration;
import java.util.List;

/**
 * Kubeconfigs for kubectl: {@code POST} mints a new API token of the caller and answers the file that uses it;
 * {@code GET ca.crt}, open to anyone, is the certificate authority of the HTTPS connector, for clients configured
 * by hand.
 */
@RestController
@RequestMapping("/api/v1/kubeconfig")
public class KubeconfigController {

    static final String PEM = "application/x-pem-file";

    private final Kubeconfigs kubeconfigs;

    KubeconfigController(Kubeconfigs kubeconfigs) {
        this.kubeconfigs = kubeconfigs;
    }

    /** Both optional, as for {@code POST /api/v1/tokens}: 90 days, described as "kubeconfig". */
    public record NewKubeconfig(Long expiresInSeconds, String description) {
    }

    @PostMapping(produces = KubernetesYaml.MEDIA_TYPE)
    public ResponseEntity<String> create(@RequestBody(required = false) NewKubeconfig request, Caller caller,
                                         HttpServletRequest http) {
        NewKubeconfig body = request == null ? new NewKubeconfig(null, null) : request;
        String kubeconfig = kubeconfigs.issue(caller, body.description(),
                body.expiresInSeconds() == null ? null : Duration.ofSeconds(body.expiresInSeconds()), http.getServerName());
        return ResponseEntity.ok()
                .header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment()
                        .filename(Kubeconfigs.FILE_NAME).build().toString())
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .body(kubeconfig);
    }

    @GetMapping(path = "/ca.crt", produces = PEM)
    public String authority() {
        return kubeconfigs.authorityPem().orElseThrow(() -> new Refusal(Refusal.Kind.NotFound, "Not Found",
                "the HTTPS connector serves a certificate configured without its authority"
                        + " (platform.tls.certificate-authority), or no HTTPS at all: clients trust it by their own means",
                List.of()));
    }
}
