package dev.platform.scheduler.preemption;

import java.time.Instant;
import java.util.Set;

/**
 * Filters of the preemption audit; every field is optional. {@code namespaces}, when not null,
 * restricts to events whose preemptor or victim is in one of them (the caller's teams, once
 * authentication exists).
 */
public record PreemptionFilter(String clusterQueue, String namespace, String reason, Instant since, Instant until,
                               Set<String> namespaces) {
}
