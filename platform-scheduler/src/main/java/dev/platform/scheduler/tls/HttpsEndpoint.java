package dev.platform.scheduler.tls;

import org.apache.catalina.connector.Connector;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.tomcat.TomcatWebServerFactory;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The scheduler's HTTPS address as clients need it: the port its connector bound (known once the web server has
 * started, and published then as {@value #LOCAL_PORT_PROPERTY}, as Spring Boot publishes {@code local.server.port})
 * and the PEM of the certificate authority clients should trust, when the platform knows it.
 */
public final class HttpsEndpoint implements ApplicationListener<WebServerInitializedEvent> {

    public static final String LOCAL_PORT_PROPERTY = "local.platform.tls.port";

    private static final Logger log = LoggerFactory.getLogger(HttpsEndpoint.class);

    private final Connector connector;
    private final String authorityPem;
    private volatile int boundPort = -1;

    private HttpsEndpoint(Connector connector, String authorityPem) {
        this.connector = connector;
        this.authorityPem = authorityPem;
    }

    /** No HTTPS connector. */
    public static HttpsEndpoint off() {
        return new HttpsEndpoint(null, null);
    }

    /**
     * A connector on {@code port} serving the PEM certificate and key given; {@code authorityPem} may be null.
     *
     * @param address the interface to listen on, as {@code server.address} names it for HTTP; null for every one
     */
    static HttpsEndpoint serving(int port, InetAddress address, Path certificate, Path privateKey, String authorityPem) {
        Connector connector = new Connector(TomcatWebServerFactory.DEFAULT_PROTOCOL);
        connector.setPort(port);
        connector.setScheme("https");
        connector.setSecure(true);
        AbstractHttp11Protocol<?> protocol = (AbstractHttp11Protocol<?>) connector.getProtocolHandler();
        protocol.setAddress(address);
        protocol.setSSLEnabled(true);
        SSLHostConfig host = new SSLHostConfig();
        host.setHostName(protocol.getDefaultSSLHostConfigName());
        SSLHostConfigCertificate served = new SSLHostConfigCertificate(host, SSLHostConfigCertificate.Type.UNDEFINED);
        served.setCertificateFile(certificate.toAbsolutePath().toString());
        served.setCertificateKeyFile(privateKey.toAbsolutePath().toString());
        host.addCertificate(served);
        protocol.addSslHostConfig(host);
        return new HttpsEndpoint(connector, authorityPem);
    }

    /** The connector to add to the web server; empty when HTTPS is off. */
    Optional<Connector> connector() {
        return Optional.ofNullable(connector);
    }

    /** The port clients reach HTTPS on; empty when it is off or the web server has not started yet. */
    public OptionalInt port() {
        return boundPort < 0 ? OptionalInt.empty() : OptionalInt.of(boundPort);
    }

    /**
     * The certificate authority that signed the served certificate, PEM: the self-signed one, or
     * {@code platform.tls.certificate-authority}; empty when clients are to trust it by their own means.
     */
    public Optional<String> authorityPem() {
        return Optional.ofNullable(authorityPem);
    }

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        if (connector == null || connector.getLocalPort() < 0) {
            return;
        }
        boundPort = connector.getLocalPort();
        if (event.getApplicationContext().getEnvironment() instanceof ConfigurableEnvironment environment) {
            publish(environment.getPropertySources(), boundPort);
        }
        log.info("HTTPS on port {}: every path of the HTTP port, and the Kubernetes API for kubectl at /k8s", boundPort);
    }

    @SuppressWarnings("unchecked")
    private static void publish(MutablePropertySources sources, int port) {
        PropertySource<?> source = sources.get("platform.tls.ports");
        if (source == null) {
            source = new MapPropertySource("platform.tls.ports", new HashMap<>());
            sources.addFirst(source);
        }
        ((Map<String, Object>) source.getSource()).put(LOCAL_PORT_PROPERTY, port);
    }
}
