package dev.platform.web.live;

import dev.platform.api.identity.Caller;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** The console's event stream: a {@code change} event each time what the caller may read changes. */
@RestController
public class LiveUpdatesController {

    private final LiveUpdates updates;

    public LiveUpdatesController(LiveUpdates updates) {
        this.updates = updates;
    }

    @GetMapping(path = "/console/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public SseEmitter events(Caller caller) {
        return updates.subscribe(caller);
    }
}
