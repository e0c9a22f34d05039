package dev.platform.api.manifest;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The annotations that say what preempting a workload costs and what protects it. On a ClusterQueue:
 * {@value #MINIMUM_RUNTIME} (a duration such as {@code 20s}, {@code 30m}, {@code 2h} or {@code 1h30m}) and
 * {@value #MINIMUM_RUNTIME_APPLIES_TO_HOTSWAP} ({@code "true"} or {@code "false"}, the default), and
 * {@value #PREEMPTION_ORDER} ({@value #LEAST_LOST_WORK}; absent, Kueue's order of candidates). On a workload
 * or JobSet: Kueue's {@value #PRIORITY_BOOST}, an integer added to its priority, and
 * {@value #LAST_CHECKPOINT}, when it last wrote a checkpoint.
 */
public final class PreemptionAnnotations {

    /** How long an admitted workload of the ClusterQueue runs before it may be preempted. */
    public static final String MINIMUM_RUNTIME = "platform.dev/minimum-runtime";
    /** Whether the minimum runtime also keeps a workload from being a hotswap victim. */
    public static final String MINIMUM_RUNTIME_APPLIES_TO_HOTSWAP = "platform.dev/minimum-runtime-applies-to-hotswap";

    /**
     * How the queue's preemptors order candidates of equal priority: {@value #LEAST_LOST_WORK}, the least lost work
     * first; absent, Kueue's most recently admitted first.
     */
    public static final String PREEMPTION_ORDER = "platform.dev/preemption-order";
    /** The one value of {@value #PREEMPTION_ORDER}. */
    public static final String LEAST_LOST_WORK = "LeastLostWork";

    /** Kueue's priority boost: the workload's effective priority is its priority class's value plus this. */
    public static final String PRIORITY_BOOST = "kueue.x-k8s.io/priority-boost";
    /** When the workload last wrote a checkpoint (RFC 3339): the work an eviction loses counts from there. */
    public static final String LAST_CHECKPOINT = "platform.dev/last-checkpoint";
    /** A boost moves a priority at most this far either way (Kubernetes' highest user-definable priority). */
    public static final int MAX_PRIORITY_BOOST = 1_000_000_000;

    private static final String PLATFORM_PREFIX = "platform.dev/";
    private static final Pattern DURATION = Pattern.compile("(?:(\\d{1,6})h)?(?:(\\d{1,6})m)?(?:(\\d{1,8})s)?");

    private PreemptionAnnotations() {
    }

    /** The ClusterQueue's minimum runtime; null when not annotated. Values are checked when the queue is applied. */
    public static Duration minimumRuntime(Map<String, String> annotations) {
        String text = annotations.get(MINIMUM_RUNTIME);
        return text == null ? null : duration(text);
    }

    public static boolean minimumRuntimeAppliesToHotswap(Map<String, String> annotations) {
        return "true".equals(annotations.get(MINIMUM_RUNTIME_APPLIES_TO_HOTSWAP));
    }

    /** Whether the ClusterQueue's preemptors take the candidate with the least lost work first among equal priorities. */
    public static boolean leastLostWork(Map<String, String> annotations) {
        return LEAST_LOST_WORK.equals(annotations.get(PREEMPTION_ORDER));
    }

    /**
     * When a workload last wrote a checkpoint; null when not annotated, or when the value (checked at submission) no
     * longer parses.
     */
    public static Instant lastCheckpoint(Map<String, String> annotations) {
        String text = annotations.get(LAST_CHECKPOINT);
        if (text == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** A positive duration in hours, minutes and seconds ({@code 90s}, {@code 30m}, {@code 1h30m}). */
    public static Duration duration(String text) {
        Matcher m = DURATION.matcher(text);
        if (text.isEmpty() || !m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration such as 20s, 30m, 2h or 1h30m");
        }
        Duration d = Duration.ofHours(part(m.group(1))).plusMinutes(part(m.group(2))).plusSeconds(part(m.group(3)));
        if (d.isZero()) {
            throw new IllegalArgumentException("must be longer than 0s");
        }
        return d;
    }

    /** A workload's priority boost; 0 when not annotated. Values are checked when the workload is submitted. */
    public static int priorityBoost(Map<String, String> annotations) {
        String text = annotations.get(PRIORITY_BOOST);
        return text == null ? 0 : Integer.parseInt(text);
    }

    /**
     * The time a {@value #LAST_CHECKPOINT} annotation names: RFC 3339, an offset allowed; what the platform checks at
     * submission and the agent reads from a JobSet in its cluster.
     *
     * @throws java.time.format.DateTimeParseException when the text is no such time
     */
    public static Instant checkpointTime(String text) {
        return OffsetDateTime.parse(text).toInstant();
    }

    /** The annotations of the platform ({@code platform.dev/...}): the ones a ClusterQueue keeps. */
    public static Map<String, String> platformAnnotations(Map<String, String> annotations) {
        Map<String, String> kept = new java.util.TreeMap<>();
        annotations.forEach((key, value) -> {
            if (key.startsWith(PLATFORM_PREFIX)) {
                kept.put(key, value);
            }
        });
        return kept;
    }

    /** What is wrong with a ClusterQueue's preemption annotations, or null when nothing is. */
    public static String clusterQueueProblem(String key, String value) {
        if (key.equals(MINIMUM_RUNTIME)) {
            try {
                duration(value);
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        } else if (key.equals(MINIMUM_RUNTIME_APPLIES_TO_HOTSWAP) && !value.equals("true") && !value.equals("false")) {
            return "must be \"true\" or \"false\"";
        } else if (key.equals(PREEMPTION_ORDER) && !value.equals(LEAST_LOST_WORK)) {
            return "'" + value + "' is not a preemption order: the one allowed value is \"" + LEAST_LOST_WORK
                    + "\" (leave the annotation out for Kueue's order)";
        }
        return null;
    }

    private static long part(String digits) {
        return digits == null ? 0 : Long.parseLong(digits);
    }
}
