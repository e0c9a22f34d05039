package dev.platform.scheduler.identity;

import dev.platform.api.identity.Caller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/me}: who the platform takes the caller for, with their roles and teams. */
@RestController
public class MeController {

    @GetMapping(path = "/api/v1/me", produces = "application/json")
    public Caller me(Caller caller) {
        return caller;
    }
}
