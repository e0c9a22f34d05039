package dev.platform.web.live;

import dev.platform.api.identity.Caller;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * Server-sent events for the console: one scheduled task per replica reads, once a second, the change
 * token of each scope that a connected browser has (every namespace, or the namespaces of a caller's
 * teams) and, when a scope's token moved, sends a {@code change} event to that scope's browsers, which
 * then re-fetch the section they show (htmx). A browser learns only that something it may read changed:
 * the event carries a digest of its scope's token, not the token (counts and sequence numbers of the
 * whole platform). Browsers connect to whichever replica serves them; each replica reads the shared
 * database, so every one sees every change.
 */
@Component
public class LiveUpdates implements SmartLifecycle {

    static final String EVENT = "change";
    private static final Duration TIMEOUT = Duration.ofMinutes(30);
    private static final Logger log = LoggerFactory.getLogger(LiveUpdates.class);

    /** A connected browser and what its caller may read (empty: everything). */
    private record Subscriber(SseEmitter emitter, Optional<Set<String>> scope) {
    }

    private final ConsoleChanges changes;
    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
    private final Map<Optional<Set<String>>, String> versions = new ConcurrentHashMap<>();
    private volatile boolean running;

    public LiveUpdates(ConsoleChanges changes) {
        this.changes = changes;
    }

    /** A new subscriber; the browser reconnects by itself when the timeout ends the stream. */
    public SseEmitter subscribe(Caller caller) {
        SseEmitter emitter = new SseEmitter(TIMEOUT.toMillis());
        Subscriber subscriber = new Subscriber(emitter, caller.visibleNamespaces().map(Set::copyOf));
        subscribers.add(subscriber);
        emitter.onCompletion(() -> subscribers.remove(subscriber));
        emitter.onTimeout(emitter::complete);
        emitter.onError(e -> subscribers.remove(subscriber));
        try {
            emitter.send(SseEmitter.event().comment("connected"));
        } catch (IOException e) {
            subscribers.remove(subscriber);
        }
        return emitter;
    }

    @Scheduled(fixedDelayString = "${platform.console.live-poll:1s}")
    public void poll() {
        Map<Optional<Set<String>>, List<Subscriber>> byScope = subscribers.stream()
                .collect(Collectors.groupingBy(Subscriber::scope));
        versions.keySet().retainAll(byScope.keySet());
        byScope.forEach(this::poll);
    }

    private void poll(Optional<Set<String>> scope, List<Subscriber> listening) {
        String current;
        try {
            current = changes.version(scope);
        } catch (RuntimeException e) {
            log.debug("console change token unavailable", e);
            return;
        }
        String previous = versions.put(scope, current);
        if (previous != null && !Objects.equals(previous, current)) {
            broadcast(listening, digest(current));
        }
    }

    int subscribers() {
        return subscribers.size();
    }

    private void broadcast(List<Subscriber> listening, String digest) {
        for (Subscriber subscriber : listening) {
            try {
                subscriber.emitter().send(SseEmitter.event().name(EVENT).id(digest).data(digest));
            } catch (IOException | IllegalStateException e) {
                subscribers.remove(subscriber);
            }
        }
    }

    static String digest(String version) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(version.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    @Override
    public void start() {
        running = true;
    }

    /** Ends every stream so graceful shutdown does not wait for open browsers. */
    @Override
    public void stop() {
        running = false;
        subscribers.forEach(s -> s.emitter().complete());
        subscribers.clear();
        versions.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
