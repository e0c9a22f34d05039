package dev.platform.api.agent;

import java.util.List;

/**
 * Evictions of a STOP or RESTART so far. {@code disruptionBudgetRejections} counts the 429
 * answers of the Eviction API; {@code blockedPods} are those still refused at the last attempt.
 */
public record EvictionProgress(int podsEvicted, int disruptionBudgetRejections, List<String> blockedPods) {

    public EvictionProgress {
        blockedPods = blockedPods == null ? List.of() : List.copyOf(blockedPods);
    }
}
