package dev.platform.agent.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.agent.Agent;
import dev.platform.agent.testing.ApiServerAdmission;
import dev.platform.agent.testing.MockKubernetes;
import dev.platform.agent.testing.MutableClock;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.security.cert.CertificateFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The internal certificate manager against the mock API server: the CA and serving certificate made into a Secret,
 * the CA written into both webhook configurations, the webhook serving TLS to a client that trusts only that
 * caBundle, and a rotation that keeps it serving.
 */
class WebhookCertificatesTest {

    private static final List<String> HOSTS = List.of("localhost", "127.0.0.1");
    private static final String MUTATING = "platform-agent-mutating-webhook-configuration";
    private static final String VALIDATING = "platform-agent-validating-webhook-configuration";

    private MockKubernetes kube;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

    @BeforeEach
    void cluster() throws Exception {
        kube = new MockKubernetes();
        kube.client().admissionRegistration().v1().mutatingWebhookConfigurations().resource(
                new MutatingWebhookConfigurationBuilder().withNewMetadata().withName(MUTATING).endMetadata()
                        .addNewWebhook().withName("mjobset.platform.dev").withNewClientConfig().withNewService()
                        .withName("platform-agent-webhook").withNamespace("platform").withPath("/mutate-jobset-x-k8s-io-v1alpha2-jobset")
                        .endService().endClientConfig().withAdmissionReviewVersions("v1").withSideEffects("None").endWebhook()
                        .addNewWebhook().withName("mjob.platform.dev").withNewClientConfig().withNewService()
                        .withName("platform-agent-webhook").withNamespace("platform").withPath("/mutate-batch-v1-job")
                        .endService().endClientConfig().withAdmissionReviewVersions("v1").withSideEffects("None").endWebhook()
                        .build()).create();
        kube.client().admissionRegistration().v1().validatingWebhookConfigurations().resource(
                new ValidatingWebhookConfigurationBuilder().withNewMetadata().withName(VALIDATING).endMetadata()
                        .addNewWebhook().withName("vjobset.platform.dev").withNewClientConfig().withNewService()
                        .withName("platform-agent-webhook").withNamespace("platform").withPath("/validate-jobset-x-k8s-io-v1alpha2-jobset")
                        .endService().endClientConfig().withAdmissionReviewVersions("v1").withSideEffects("None").endWebhook()
                        .build()).create();
    }

    @AfterEach
    void stop() {
        kube.close();
    }

    private CertificateRotation replica() {
        return new CertificateRotation(new SecretCertificateStore(kube.apiClient(), "platform", "webhook-cert"),
                new CaBundlePublisher(kube.apiClient(), MUTATING, VALIDATING), HOSTS, clock);
    }

    @Test
    void servesWithTheCaItPublishedAndKeepsServingAcrossARotation() throws Exception {
        CertificateRotation rotation = replica();
        Secret secret = kube.client().secrets().inNamespace("platform").withName("webhook-cert").get();
        assertThat(secret.getType()).isEqualTo("kubernetes.io/tls");
        assertThat(secret.getData()).containsOnlyKeys("ca.crt", "ca.key", "tls.crt", "tls.key");
        String published = publishedCaBundle();
        assertThat(published).isEqualTo(rotation.current().caBundle(clock.instant()));
        assertThat(validatingCaBundle()).isEqualTo(published);

        try (WebhookServer server = new WebhookServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new AdmissionWebhook(ManagedJobs.queueNamedOnly(), Agent.json(), new SimpleMeterRegistry()),
                rotation.keys())) {
            server.start();
            BigInteger first = servedCertificate(server, published).getSerialNumber();
            assertThat(reviewAllowed(server, published)).isTrue();

            clock.advance(Duration.ofDays(300));
            rotation.check();

            X509Certificate renewed = servedCertificate(server, publishedCaBundle());
            assertThat(renewed.getSerialNumber()).isNotEqualTo(first);
            assertThat(renewed.getNotAfter().toInstant()).isAfter(clock.instant().plus(Duration.ofDays(300)));
            assertThat(publishedCaBundle()).as("the CA stays: API servers keep trusting").isEqualTo(published);
            assertThat(reviewAllowed(server, publishedCaBundle())).isTrue();
            assertThat(WebhookCertificate.fromSecretData(kube.client().secrets().inNamespace("platform")
                    .withName("webhook-cert").get().getData().entrySet().stream()
                    .collect(Collectors.toMap(e -> e.getKey(), e -> Base64.getDecoder().decode(e.getValue()))))
                    .serving()).isEqualTo(renewed);
        } finally {
            rotation.close();
        }
    }

    @Test
    void aSecondReplicaServesTheStoredCertificateAndARenewedCaIsPublishedBesideTheOldOne() throws Exception {
        CertificateRotation first = replica();
        CertificateRotation second = replica();
        assertThat(second.current().serving()).isEqualTo(first.current().serving());

        String oldCa = publishedCaBundle();
        clock.advance(Duration.ofDays(9 * 365 + 10));
        second.check();
        first.check();

        X509Certificate oldCaCertificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(oldCa.getBytes(StandardCharsets.US_ASCII)));
        assertThat(first.current().ca()).isEqualTo(second.current().ca()).isNotEqualTo(oldCaCertificate);
        assertThat(publishedCaBundle()).startsWith(WebhookCertificate.pem(first.current().ca())).endsWith(oldCa);
    }

    private String publishedCaBundle() {
        return new String(kube.client().admissionRegistration().v1().mutatingWebhookConfigurations().withName(MUTATING).get()
                .getWebhooks().get(1).getClientConfig().getCaBundle() == null ? new byte[0]
                : Base64.getDecoder().decode(kube.client().admissionRegistration().v1().mutatingWebhookConfigurations()
                        .withName(MUTATING).get().getWebhooks().get(1).getClientConfig().getCaBundle()),
                StandardCharsets.US_ASCII);
    }

    private String validatingCaBundle() {
        return new String(Base64.getDecoder().decode(kube.client().admissionRegistration().v1()
                .validatingWebhookConfigurations().withName(VALIDATING).get().getWebhooks().get(0).getClientConfig()
                .getCaBundle()), StandardCharsets.US_ASCII);
    }

    private static boolean reviewAllowed(WebhookServer server, String caBundle) {
        return new ApiServerAdmission(URI.create("https://localhost:" + server.port()), caBundle)
                .review("/mutate-batch-v1-job", "CREATE", Agent.json().readTree("""
                        {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j", "namespace": "default"},
                         "spec": {"template": {"spec": {"containers": []}}}}"""), null, false)
                .allowed();
    }

    /** The certificate a client that trusts only {@code caBundle} is shown in a fresh handshake. */
    private static X509Certificate servedCertificate(WebhookServer server, String caBundle) throws Exception {
        try (SSLSocket socket = (SSLSocket) ApiServerAdmission.trusting(caBundle).getSocketFactory()
                .createSocket("localhost", server.port())) {
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }
}
