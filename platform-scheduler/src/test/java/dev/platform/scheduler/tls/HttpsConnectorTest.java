package dev.platform.scheduler.tls;

import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.TestIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The HTTPS connector serves the whole application with the self-signed certificate, and the clients users hold
 * accept it given only the platform's certificate authority: Java's HttpClient, Debian's python3 and kubectl
 * (Go's crypto/x509, the strictest of them), each checking the host name against the certificate.
 */
class HttpsConnectorTest extends PlatformApplicationTest {

    static final Path KUBECTLS = Path.of("/usr/lib/google-cloud-sdk/bin");
    static final Path DEBIAN_PYTHON = Path.of("/usr/bin/python3");

    @Value("${" + HttpsEndpoint.LOCAL_PORT_PROPERTY + "}")
    int httpsPort;

    @Autowired
    HttpsEndpoint https;

    @TempDir
    Path dir;

    @Test
    void theBoundPortIsPublishedAndTheAuthorityKnown() {
        assertThat(httpsPort).isPositive().isNotEqualTo(8443).isNotEqualTo(port);
        assertThat(https.port()).hasValue(httpsPort);
        assertThat(https.authorityPem()).hasValueSatisfying(pem -> assertThat(pem).startsWith("-----BEGIN CERTIFICATE"));
    }

    @Test
    void javaTrustingOnlyThePlatformsAuthorityReadsTheSameApplication() throws Exception {
        HttpClient client = HttpClient.newBuilder().sslContext(trusting(authority())).build();

        HttpResponse<String> health = client.send(HttpRequest.newBuilder(uri("localhost", "/actuator/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> me = client.send(HttpRequest.newBuilder(uri("localhost", "/api/v1/me"))
                .header("Authorization", "Bearer " + TestIdentity.ADMIN_TOKEN).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"UP\"");
        assertThat(me.statusCode()).isEqualTo(200);
        assertThat(me.body()).contains("\"admin\"");
    }

    @Test
    void aClientWithoutTheAuthorityRefusesTheCertificate() {
        HttpClient client = HttpClient.newHttpClient();

        assertThatThrownBy(() -> client.send(HttpRequest.newBuilder(uri("localhost", "/actuator/health")).build(),
                HttpResponse.BodyHandlers.ofString())).isInstanceOf(SSLHandshakeException.class);
    }

    @Test
    void debiansPythonTrustingTheAuthorityReadsIt() throws Exception {
        assumeTrue(Files.isExecutable(DEBIAN_PYTHON), DEBIAN_PYTHON + " is not installed: the check with Python is skipped");
        Path ca = Files.writeString(dir.resolve("ca.crt"), authority());

        for (String host : List.of("localhost", "127.0.0.1")) {
            Run run = run(List.of(DEBIAN_PYTHON.toString(), "-c", """
                    import ssl, sys, urllib.request
                    context = ssl.create_default_context(cafile=sys.argv[1])
                    print(urllib.request.urlopen(sys.argv[2], context=context).read().decode())
                    """, ca.toString(), uri(host, "/actuator/health").toString()));

            assertThat(run.exit()).as(run.output()).isZero();
            assertThat(run.output()).contains("\"UP\"");
        }
    }

    @ParameterizedTest(name = "kubectl {0}")
    @ValueSource(strings = {"1.27", "1.33"})
    void kubectlTrustingTheAuthorityCallsWithTheToken(String version) throws Exception {
        Path kubectl = KUBECTLS.resolve("kubectl." + version);
        assumeTrue(Files.isExecutable(kubectl), kubectl + " is not installed: the check with kubectl " + version
                + " is skipped");
        Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters:
                - name: platform
                  cluster:
                    server: %s
                    certificate-authority-data: %s
                users:
                - name: admin
                  user:
                    token: %s
                contexts:
                - name: platform
                  context:
                    cluster: platform
                    user: admin
                current-context: platform
                """.formatted(uri("127.0.0.1", ""), Base64.getEncoder().encodeToString(
                authority().getBytes(StandardCharsets.US_ASCII)), TestIdentity.ADMIN_TOKEN));

        Run run = run(List.of(kubectl.toString(), "--kubeconfig=" + kubeconfig, "get", "--raw", "/api/v1/me"));

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("\"admin\"");
    }

    private String authority() {
        return https.authorityPem().orElseThrow();
    }

    private URI uri(String host, String path) {
        return URI.create("https://" + host + ":" + httpsPort + path);
    }

    static SSLContext trusting(String authorityPem) throws Exception {
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        trusted.setCertificateEntry("platform", CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(authorityPem.getBytes(StandardCharsets.US_ASCII))));
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    record Run(int exit, String output) {
    }

    /** A client's process, without the machine's proxy settings: it talks to this host only. */
    static Run run(List<String> command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.toLowerCase().endsWith("_proxy"));
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s ended", command.get(0)).isTrue();
        return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }
}
