package dev.platform.agent.webhook;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A serving certificate that something else makes and renews (cert-manager, whose Secret the chart mounts): tls.crt
 * and tls.key of a directory, read at start and again at each check, served from the next handshake after they
 * change. cert-manager's CA injector writes the caBundle.
 */
public final class DirectoryCertificates implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DirectoryCertificates.class);

    private final Path directory;
    private final ServingKeys keys;
    private ScheduledExecutorService checks;

    public DirectoryCertificates(Path directory) {
        this.directory = directory;
        this.keys = new ServingKeys(read());
    }

    public ServingKeys keys() {
        return keys;
    }

    public synchronized void start(Duration interval) {
        checks = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "webhook-certificates");
            thread.setDaemon(true);
            return thread;
        });
        checks.scheduleWithFixedDelay(this::check, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    void check() {
        try {
            ServingKeys.Identity identity = read();
            if (!identity.chain()[0].equals(keys.certificate())) {
                keys.use(identity);
                log.info("webhook serving certificate from {} renewed: valid until {}", directory,
                        identity.chain()[0].getNotAfter().toInstant());
            }
        } catch (RuntimeException e) {
            log.warn("webhook certificate in {} unreadable; serving the previous one", directory, e);
        }
    }

    private ServingKeys.Identity read() {
        try {
            Map<String, byte[]> files = Map.of(
                    WebhookCertificate.TLS_CERT, Files.readAllBytes(directory.resolve(WebhookCertificate.TLS_CERT)),
                    WebhookCertificate.TLS_KEY, Files.readAllBytes(directory.resolve(WebhookCertificate.TLS_KEY)));
            List<X509Certificate> chain = WebhookCertificate.certificates(files, WebhookCertificate.TLS_CERT);
            return new ServingKeys.Identity(WebhookCertificate.privateKey(files, WebhookCertificate.TLS_KEY),
                    chain.toArray(X509Certificate[]::new));
        } catch (IOException e) {
            throw new UncheckedIOException("no webhook certificate in " + directory + " (tls.crt, tls.key): "
                    + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() {
        if (checks != null) {
            checks.shutdownNow();
        }
    }
}
