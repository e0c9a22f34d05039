package dev.platform.scheduler.preemption;

import dev.platform.api.identity.Caller;
import java.time.Instant;
import java.util.Set;

/**
 * Filters of the preemption audit; every field is optional. {@code namespaces}, when not null,
 * restricts to events whose preemptor or victim is in one of them (the namespaces a team lead leads).
 */
public record PreemptionFilter(String clusterQueue, String namespace, String reason, Instant since, Instant until,
                               Set<String> namespaces) {

    /** The filters as asked, within what {@code caller} may audit. */
    public static PreemptionFilter of(Caller caller, String clusterQueue, String namespace, String reason, Instant since,
                                      Instant until) {
        return new PreemptionFilter(clusterQueue, namespace, reason, since, until, caller.ledNamespaces().orElse(null));
    }
}
