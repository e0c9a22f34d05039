package dev.platform.agent.command;

import dev.platform.agent.scheduler.Backoff;
import java.time.Duration;

/**
 * How long a STOP or RESTART keeps retrying evictions refused by a PodDisruptionBudget, and how
 * long a RESTART waits for the old pods to be gone before it gives up.
 */
public record EvictionPolicy(Backoff retry, Duration timeout) {

    public static final EvictionPolicy DEFAULT = new EvictionPolicy(
            new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(15)), Duration.ofMinutes(5));
}
