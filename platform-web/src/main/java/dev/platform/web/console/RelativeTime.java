package dev.platform.web.console;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Times as the console shows them: relative to {@code now} ("3 min ago", "in about 25 min"), with the exact UTC
 * time for the hover title. Pages reach it as the model attribute {@code times}; the fragment
 * {@code fragments/time :: at(instant)} renders one time.
 */
public record RelativeTime(Instant now) {

    /** What reads as "just now"; older, seconds are counted. */
    static final Duration JUST_NOW = Duration.ofSeconds(10);
    /** An instant as {@link Instant#toString()} writes it, in UTC. */
    private static final Pattern ISO_INSTANT = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?Z");
    private static final DateTimeFormatter EXACT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter EXACT_MILLIS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    /**
     * "3 min ago", "in about 25 min", "51 s ago", "just now" (under {@link #JUST_NOW}: a stale cluster's last report,
     * 51 s old, must not read as fresh).
     */
    public String relative(Instant at) {
        if (at == null) {
            return "";
        }
        Duration d = Duration.between(now, at);
        if (d.abs().compareTo(Duration.ofMinutes(1)) < 0) {
            if (!d.isNegative()) {
                return d.isZero() ? "just now" : "in under a minute";
            }
            return d.negated().compareTo(JUST_NOW) < 0 ? "just now" : d.negated().toSeconds() + " s ago";
        }
        return d.isNegative() ? amount(d.negated()) + " ago" : "in about " + amount(d);
    }

    /** "2026-03-01 10:00:00 UTC", with milliseconds when there are any. */
    public String exact(Instant at) {
        if (at == null) {
            return "";
        }
        return (at.getNano() / 1_000_000 == 0 ? EXACT : EXACT_MILLIS).format(at) + " UTC";
    }

    /**
     * When a forecast expects a workload to start: "starts in about 25 min (range 10-50 min)"; the range is left
     * out when it is a single time, and open when its late end is unknown.
     */
    public String startsIn(ForecastView f) {
        Duration wait = untilOrZero(f.estimatedAdmissionAt());
        String when = wait.compareTo(Duration.ofMinutes(1)) < 0 ? "starts in under a minute" : "starts in about " + amount(wait);
        Instant low = f.p10() == null ? f.estimatedAdmissionAt() : f.p10();
        if (f.p90() == null) {
            return when + " (range " + amount(untilOrZero(low)) + " or later)";
        }
        if (low.equals(f.p90())) {
            return when;
        }
        return when + " (range " + range(untilOrZero(low), untilOrZero(f.p90())) + ")";
    }

    /** The start if nothing new arrives: "if nothing new arrives: in about 10 min". */
    public String ifNothingArrives(ForecastView f) {
        Duration wait = untilOrZero(f.ifNothingArrivesAt());
        return "if nothing new arrives: " + (wait.compareTo(Duration.ofMinutes(1)) < 0 ? "in under a minute"
                : "in about " + amount(wait));
    }

    /** A start known only to be later than {@code earliest}: "starts in more than 7 d". */
    public String notBefore(Instant earliest) {
        return "starts in more than " + amount(untilOrZero(earliest));
    }

    /** The hover text of a forecast: the estimate and its range in UTC. */
    public String exactRange(ForecastView f) {
        String estimate = exact(f.estimatedAdmissionAt());
        if (f.p10() == null || f.p90() == null || f.p10().equals(f.p90())) {
            return estimate;
        }
        return estimate + " (range " + exact(f.p10()) + " to " + exact(f.p90()) + ")";
    }

    /** A piece of a message: its text, or a time in it ({@code at} not null) to show as every console time reads. */
    public record Part(String text, Instant at) {
    }

    /**
     * A message cut at the times written in it as ISO-8601 instants (the scheduler's messages say "backing off until
     * 2026-03-01T10:05:00Z"), so {@code fragments/time :: text(message)} shows each as {@link #relative}, exact on
     * hover. A message without one is a single text part; null is none.
     */
    public List<Part> parts(String message) {
        if (message == null) {
            return List.of();
        }
        List<Part> parts = new ArrayList<>();
        Matcher instant = ISO_INSTANT.matcher(message);
        int from = 0;
        while (instant.find()) {
            Instant at;
            try {
                at = Instant.parse(instant.group());
            } catch (DateTimeParseException e) {
                continue;
            }
            if (instant.start() > from) {
                parts.add(new Part(message.substring(from, instant.start()), null));
            }
            parts.add(new Part(instant.group(), at));
            from = instant.end();
        }
        if (from < message.length()) {
            parts.add(new Part(message.substring(from), null));
        }
        return parts;
    }

    private Duration untilOrZero(Instant at) {
        Duration d = Duration.between(now, at);
        return d.isNegative() ? Duration.ZERO : d;
    }

    /** "10-50 min" when both ends are in minutes, else each end in its own units: "50 min-2 h 10 min". */
    private static String range(Duration low, Duration high) {
        if (high.compareTo(Duration.ofHours(1)) < 0) {
            return minutes(low) + "-" + amount(high);
        }
        return amount(low) + "-" + amount(high);
    }

    private static long minutes(Duration d) {
        return Math.round(d.toSeconds() / 60.0);
    }

    /** In the largest two units, rounded to the minute: "25 min", "2 h 5 min", "3 d 4 h"; "0 min" for less. */
    static String amount(Duration d) {
        long m = minutes(d);
        if (m < 60) {
            return m + " min";
        }
        if (m < 24 * 60) {
            return m / 60 + " h" + (m % 60 == 0 ? "" : " " + m % 60 + " min");
        }
        long h = m / 60;
        return h / 24 + " d" + (h % 24 == 0 ? "" : " " + h % 24 + " h");
    }
}
