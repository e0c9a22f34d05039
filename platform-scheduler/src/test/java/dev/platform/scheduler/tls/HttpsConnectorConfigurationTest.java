package dev.platform.scheduler.tls;

import dev.platform.scheduler.database.EmbeddedDatabaseProperties;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which connector the settings ask for: none, one with the self-signed certificate, or one with the operator's. */
class HttpsConnectorConfigurationTest {

    @TempDir
    Path dataDir;

    private final HttpsConnectorConfiguration configuration = new HttpsConnectorConfiguration();

    @Test
    void portMinusOneOrDisabledMeansNoConnectorAndNoCertificate() {
        for (TlsProperties off : List.of(settings(true, -1, null, null, null), settings(false, 8443, null, null, null))) {
            HttpsEndpoint endpoint = endpoint(off);

            assertThat(endpoint.connector()).isEmpty();
            assertThat(endpoint.authorityPem()).isEmpty();
        }
        assertThat(dataDir.resolve("tls")).doesNotExist();
    }

    @Test
    void withoutACertificateTheSelfSignedOneIsServedFromTheDataDirectory() throws Exception {
        HttpsEndpoint endpoint = endpoint(settings(true, 8443, null, null, null));

        Connector connector = endpoint.connector().orElseThrow();
        assertThat(connector.getPort()).isEqualTo(8443);
        assertThat(connector.getScheme()).isEqualTo("https");
        assertThat(connector.findSslHostConfigs()[0].getCertificates().iterator().next().getCertificateFile())
                .isEqualTo(dataDir.resolve("tls/tls.crt").toAbsolutePath().toString());
        assertThat(endpoint.authorityPem()).hasValue(Files.readString(dataDir.resolve("tls/ca.crt")));
    }

    @Test
    void aConfiguredCertificateIsServedWithItsAuthorityForKubeconfigs() throws Exception {
        Path own = dataDir.resolve("own");
        new SelfSignedCertificates(own, Clock.systemUTC()).ensure(Set.of("platform.example.com"));

        HttpsEndpoint endpoint = endpoint(settings(true, 0, own.resolve("tls.crt"), own.resolve("tls.key"),
                own.resolve("ca.crt")));
        HttpsEndpoint withoutAuthority = endpoint(settings(true, 0, own.resolve("tls.crt"), own.resolve("tls.key"), null));

        assertThat(endpoint.connector().orElseThrow().findSslHostConfigs()[0].getCertificates().iterator().next()
                .getCertificateKeyFile()).isEqualTo(own.resolve("tls.key").toAbsolutePath().toString());
        assertThat(endpoint.authorityPem()).hasValue(Files.readString(own.resolve("ca.crt")));
        assertThat(withoutAuthority.authorityPem()).isEmpty();
        assertThat(dataDir.resolve("tls")).doesNotExist();
    }

    @Test
    void httpsListensWhereHttpDoes() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");

        HttpsEndpoint local = configuration.httpsEndpoint(settings(true, 0, null, null, null),
                new EmbeddedDatabaseProperties(dataDir, 0, true), Clock.systemUTC(), "127.0.0.1");

        assertThat(local.connector().orElseThrow().getProperty("address")).isEqualTo(loopback);
        assertThat(endpoint(settings(true, 0, null, null, null)).connector().orElseThrow().getProperty("address"))
                .isNull();
    }

    @Test
    void aMissingFileIsRefusedAtStartNamingItsSetting() {
        assertThatThrownBy(() -> endpoint(settings(true, 0, dataDir.resolve("nothing.crt"), dataDir.resolve("nothing.key"),
                null))).hasMessageContaining("platform.tls.certificate").hasMessageContaining("nothing.crt");
    }

    @Test
    void halfACertificateOrABadPortIsRefused() {
        assertThatThrownBy(() -> settings(true, 0, dataDir.resolve("tls.crt"), null, null))
                .hasMessageContaining("platform.tls.private-key");
        assertThatThrownBy(() -> settings(true, 0, null, null, dataDir.resolve("ca.crt")))
                .hasMessageContaining("platform.tls.certificate-authority");
        assertThatThrownBy(() -> settings(true, -2, null, null, null)).hasMessageContaining("platform.tls.port");
    }

    private HttpsEndpoint endpoint(TlsProperties tls) {
        return configuration.httpsEndpoint(tls, new EmbeddedDatabaseProperties(dataDir, 0, true), Clock.systemUTC(), "");
    }

    private static TlsProperties settings(boolean enabled, int port, Path certificate, Path key, Path authority) {
        return new TlsProperties(enabled, port, certificate, key, authority, List.of());
    }
}
