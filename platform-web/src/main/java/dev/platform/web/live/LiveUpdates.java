package dev.platform.web.live;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Server-sent events for the console: one scheduled task per replica reads the change token once a
 * second and, when it moved, sends a {@code change} event to every connected browser, which then
 * re-fetches the section it shows (htmx). Browsers connect to whichever replica serves them; each
 * replica reads the shared database, so every one sees every change.
 */
@Component
public class LiveUpdates implements SmartLifecycle {

    static final String EVENT = "change";
    private static final Duration TIMEOUT = Duration.ofMinutes(30);
    private static final Logger log = LoggerFactory.getLogger(LiveUpdates.class);

    private final ConsoleChanges changes;
    private final List<SseEmitter> emitters = new CopyOnWriteArrayList<>();
    private volatile String version;
    private volatile boolean running;

    public LiveUpdates(ConsoleChanges changes) {
        this.changes = changes;
    }

    /** A new subscriber; the browser reconnects by itself when the timeout ends the stream. */
    public SseEmitter subscribe() {
        SseEmitter emitter = new SseEmitter(TIMEOUT.toMillis());
        emitters.add(emitter);
        emitter.onCompletion(() -> emitters.remove(emitter));
        emitter.onTimeout(emitter::complete);
        emitter.onError(e -> emitters.remove(emitter));
        try {
            emitter.send(SseEmitter.event().comment("connected"));
        } catch (IOException e) {
            emitters.remove(emitter);
        }
        return emitter;
    }

    @Scheduled(fixedDelayString = "${platform.console.live-poll:1s}")
    public void poll() {
        if (emitters.isEmpty()) {
            version = null;
            return;
        }
        String current;
        try {
            current = changes.version();
        } catch (RuntimeException e) {
            log.debug("console change token unavailable", e);
            return;
        }
        String previous = version;
        version = current;
        if (previous != null && !Objects.equals(previous, current)) {
            broadcast(current);
        }
    }

    int subscribers() {
        return emitters.size();
    }

    private void broadcast(String current) {
        for (SseEmitter emitter : emitters) {
            try {
                emitter.send(SseEmitter.event().name(EVENT).id(current).data(current));
            } catch (IOException | IllegalStateException e) {
                emitters.remove(emitter);
            }
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
        emitters.forEach(SseEmitter::complete);
        emitters.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
