package dev.platform.scheduler.tls;

import dev.platform.scheduler.database.EmbeddedDatabaseProperties;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.time.Clock;

/**
 * The HTTPS connector beside the HTTP one (docs/security.md): the certificate configured, or else the self-signed
 * one kept in the data directory's {@code tls/} folder.
 */
@Configuration(proxyBeanMethods = false)
class HttpsConnectorConfiguration {

    static final String CERTIFICATE_FOLDER = "tls";

    /** @param address {@code server.address}: HTTPS listens where HTTP does, never wider */
    @Bean
    HttpsEndpoint httpsEndpoint(TlsProperties tls, EmbeddedDatabaseProperties database, Clock clock,
                                @Value("${server.address:}") String address) {
        if (!tls.serves()) {
            return HttpsEndpoint.off();
        }
        InetAddress listenOn = address.isBlank() ? null : resolved(address);
        if (tls.selfSigned()) {
            SelfSignedCertificates.Issued issued = new SelfSignedCertificates(
                    database.dataDir().resolve(CERTIFICATE_FOLDER), clock)
                    .ensure(SelfSignedCertificates.defaultNames(tls.subjectAlternativeNames()));
            return HttpsEndpoint.serving(tls.port(), listenOn, issued.certificate(), issued.privateKey(),
                    issued.authorityPem());
        }
        readable("platform.tls.certificate", tls.certificate());
        readable("platform.tls.private-key", tls.privateKey());
        String authority = tls.certificateAuthority() == null ? null
                : readable("platform.tls.certificate-authority", tls.certificateAuthority());
        if (authority != null) {
            try {
                SelfSignedCertificates.readCertificate(tls.certificateAuthority());
            } catch (IOException | CertificateException e) {
                throw new IllegalStateException("platform.tls.certificate-authority: " + e.getMessage(), e);
            }
        }
        return HttpsEndpoint.serving(tls.port(), listenOn, tls.certificate(), tls.privateKey(), authority);
    }

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> httpsConnector(HttpsEndpoint endpoint) {
        return factory -> endpoint.connector().ifPresent(factory::addAdditionalConnectors);
    }

    private static InetAddress resolved(String address) {
        try {
            return InetAddress.getByName(address);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("server.address: " + address + " does not resolve", e);
        }
    }

    private static String readable(String property, Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(property + ": cannot read " + file.toAbsolutePath() + " (" + e + ")", e);
        }
    }
}
