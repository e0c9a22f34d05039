package dev.platform.scheduler.preemption;

import dev.platform.api.manifest.WorkloadManifest.PodSetSpec;
import dev.platform.scheduler.core.model.UnsavedWork;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The training a preemption threw away: the victim's requests of the accelerator resources times the time since
 * {@code since}, the later of its last checkpoint and its current admission. {@code resourceSeconds} holds one
 * entry per resource the victim requests (for example {@code google.com/tpu}: chip-seconds).
 */
public record LostWork(Instant since, Map<String, Double> resourceSeconds) {

    public LostWork {
        resourceSeconds = Map.copyOf(resourceSeconds);
    }

    /**
     * What a victim admitted at {@code admittedAt} that last checkpointed at {@code checkpoint} (null when unknown)
     * loses when preempted at {@code now}; null when it was not admitted.
     */
    static LostWork of(List<PodSetSpec> podSets, Instant admittedAt, Instant checkpoint, Instant now,
                       Collection<String> resources) {
        if (admittedAt == null) {
            return null;
        }
        Instant since = UnsavedWork.since(admittedAt, checkpoint);
        double seconds = Math.max(0, Duration.between(since, now).toMillis()) / 1000.0;
        Map<String, Double> lost = new TreeMap<>();
        for (PodSetSpec podSet : podSets) {
            podSet.requests().forEach((resource, quantity) -> {
                if (resources.contains(resource)) {
                    double amount = BigDecimal.valueOf(quantity.milliValue()).movePointLeft(3).doubleValue() * podSet.count();
                    lost.merge(resource, amount * seconds, Double::sum);
                }
            });
        }
        return new LostWork(since, lost);
    }

    /** As a timeline says it, to the second: {@code google.com/tpu 2.67 chip-hours since 2026-01-01T12:00:00Z}. */
    public String describe() {
        return new TreeMap<>(resourceSeconds).entrySet().stream()
                .map(e -> e.getKey() + " " + String.format(Locale.ROOT, "%.2f", e.getValue() / 3600) + " chip-hours")
                .collect(Collectors.joining(", ")) + " since " + since.truncatedTo(ChronoUnit.SECONDS);
    }

    /** The resource-seconds summed over the resources: what the lost-work counter adds. */
    public double total() {
        return resourceSeconds.values().stream().mapToDouble(Double::doubleValue).sum();
    }
}
