package dev.platform.web.console;

import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The training an eviction threw away: per accelerator resource, its chips times the seconds since {@code since}
 * (the later of the workload's last checkpoint and its admission). Shown in chip-hours, the unit a team budgets in.
 */
public record LostWorkView(Instant since, Map<String, Double> resourceSeconds) {

    public LostWorkView {
        resourceSeconds = new TreeMap<>(resourceSeconds);
    }

    /** {@code google.com/tpu 2.67 chip-hours}, one entry per resource; "none" when it held no accelerator. */
    public String text() {
        if (resourceSeconds.isEmpty()) {
            return "none";
        }
        return resourceSeconds.entrySet().stream().map(e -> e.getKey() + " " + chipHours(e.getValue()))
                .collect(Collectors.joining(", "));
    }

    /** Resource-seconds as chip-hours with two decimals: {@code 28800} is {@code 8.00 chip-hours}. */
    public static String chipHours(double resourceSeconds) {
        return String.format(Locale.ROOT, "%,.2f chip-hours", resourceSeconds / 3600);
    }
}
