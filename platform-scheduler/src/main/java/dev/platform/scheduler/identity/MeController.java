package dev.platform.scheduler.identity;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.ClusterRole;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

/** {@code GET /api/v1/me}: who the platform takes the caller for, with their roles and teams. */
@RestController
public class MeController {

    /** The caller as the API shows it: exactly these fields. */
    public record Me(String name, ClusterRole clusterRole, List<Caller.Membership> teams) {
    }

    @GetMapping(path = "/api/v1/me", produces = "application/json")
    public Me me(Caller caller) {
        return new Me(caller.name(), caller.clusterRole(), caller.teams());
    }
}
