package dev.platform.scheduler.tls;

import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.TestIdentity;
import dev.platform.scheduler.testsupport.TlsClients;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

import javax.net.ssl.SSLHandshakeException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The HTTPS connector serves the whole application with the self-signed certificate, and the clients users hold
 * accept it given only the platform's certificate authority: Java's HttpClient and Debian's python3, each checking
 * the host name against the certificate (kubectl: {@code KubeconfigApiTest}).
 */
class HttpsConnectorTest extends PlatformApplicationTest {

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
        HttpClient client = HttpClient.newBuilder().sslContext(TlsClients.trusting(authority())).build();

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
        assumeTrue(Files.isExecutable(TlsClients.DEBIAN_PYTHON), TlsClients.DEBIAN_PYTHON + " is not installed: the check with Python is skipped");
        Path ca = Files.writeString(dir.resolve("ca.crt"), authority());

        for (String host : List.of("localhost", "127.0.0.1")) {
            TlsClients.Run run = TlsClients.run(List.of(TlsClients.DEBIAN_PYTHON.toString(), "-c", """
                    import ssl, sys, urllib.request
                    context = ssl.create_default_context(cafile=sys.argv[1])
                    print(urllib.request.urlopen(sys.argv[2], context=context).read().decode())
                    """, ca.toString(), uri(host, "/actuator/health").toString()));

            assertThat(run.exit()).as(run.output()).isZero();
            assertThat(run.output()).contains("\"UP\"");
        }
    }

    private String authority() {
        return https.authorityPem().orElseThrow();
    }

    private URI uri(String host, String path) {
        return URI.create("https://" + host + ":" + httpsPort + path);
    }
}
