package dev.platform.agent.webhook;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webhook's internal certificate manager, as Kueue's: a CA and a serving certificate kept in a
 * {@link CertificateStore}, made on first start, renewed before they end ({@link WebhookCertificate#renewedAsDue}),
 * served from the next TLS handshake on, and the CA published as the webhook configurations' {@code caBundle}.
 * Every replica runs it at start and at each check: the first to find something due writes it, the others read it.
 */
public final class CertificateRotation implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CertificateRotation.class);
    private static final int ATTEMPTS = 5;

    private final CertificateStore store;
    private final Consumer<String> caBundlePublisher;
    private final List<String> hosts;
    private final Clock clock;
    private final ServingKeys keys;
    private volatile WebhookCertificate current;
    private ScheduledExecutorService checks;

    /** Reads or makes the certificate at once, so the webhook never serves without one. */
    public CertificateRotation(CertificateStore store, Consumer<String> caBundlePublisher, List<String> hosts, Clock clock) {
        this.store = store;
        this.caBundlePublisher = caBundlePublisher;
        this.hosts = List.copyOf(hosts);
        this.clock = clock;
        this.current = due();
        this.keys = new ServingKeys(current.identity());
        caBundlePublisher.accept(current.caBundle(clock.instant()));
    }

    /** Checks every {@code interval}; a failed check (API server away) is logged and tried at the next. */
    public synchronized void start(Duration interval) {
        checks = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "webhook-certificates");
            thread.setDaemon(true);
            return thread;
        });
        checks.scheduleWithFixedDelay(() -> {
            try {
                check();
            } catch (RuntimeException e) {
                log.warn("webhook certificate check failed; next in {}", interval, e);
            }
        }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void close() {
        if (checks != null) {
            checks.shutdownNow();
        }
    }

    public ServingKeys keys() {
        return keys;
    }

    public WebhookCertificate current() {
        return current;
    }

    /** What is stored, renewed if due; served and published. */
    public synchronized void check() {
        WebhookCertificate checked = due();
        if (!checked.serving().equals(current.serving())) {
            log.info("webhook serving certificate renewed: serial {} valid until {} (CA valid until {})",
                    checked.serving().getSerialNumber().toString(16), checked.serving().getNotAfter().toInstant(),
                    checked.ca().getNotAfter().toInstant());
            keys.use(checked.identity());
        }
        current = checked;
        caBundlePublisher.accept(checked.caBundle(clock.instant()));
    }

    private WebhookCertificate due() {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Instant now = clock.instant();
            Optional<CertificateStore.Stored> stored = store.read();
            if (stored.isEmpty()) {
                WebhookCertificate made = WebhookCertificate.generate(hosts, now);
                if (store.create(made.secretData(now))) {
                    log.info("webhook CA and serving certificate made for {}", hosts);
                    return made;
                }
                continue;
            }
            WebhookCertificate found;
            try {
                found = WebhookCertificate.fromSecretData(stored.get().data());
            } catch (IllegalArgumentException e) {
                // unreadable (edited by hand, an older layout): replaced, as Kueue's manager replaces it
                log.warn("webhook certificate store unreadable ({}): making a new CA and certificate", e.getMessage());
                WebhookCertificate made = WebhookCertificate.generate(hosts, now);
                if (store.replace(made.secretData(now), stored.get().version())) {
                    return made;
                }
                continue;
            }
            WebhookCertificate renewed = found.renewedAsDue(hosts, now);
            if (renewed == found || store.replace(renewed.secretData(now), stored.get().version())) {
                return renewed;
            }
        }
        throw new IllegalStateException("the webhook certificate store kept changing under " + ATTEMPTS + " attempts");
    }
}
