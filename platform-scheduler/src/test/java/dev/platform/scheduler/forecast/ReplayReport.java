package dev.platform.scheduler.forecast;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * Forecasts recorded during a replay, compared with the admissions that followed: absolute error in minutes and
 * as a fraction of the wait still ahead when the forecast was made, per workload class, and how often the
 * p10-p90 range held the actual admission.
 */
final class ReplayReport {

    /** A forecast admission within this of the actual one counts as exact: the replay's clock stands still. */
    static final Duration ONE_CYCLE = Duration.ofSeconds(1);
    /** The wait beyond which the relative error is judged. */
    static final Duration LONG_WAIT = Duration.ofMinutes(5);

    /**
     * A forecast with an estimate, made {@code at} for workload {@code name}, and the admission that followed.
     * {@code disturbed}: a workload that arrived after the forecast was made was admitted in the same cohort tree
     * no later than this one, so the forecast could not have known what decided the outcome.
     */
    record Sample(String workloadClass, String name, Instant at, Instant estimate, Instant p10, Instant p90,
                  String basis, Instant actual, boolean disturbed) {

        double errorMinutes() {
            return Math.abs(Duration.between(actual, estimate).toMillis()) / 60_000.0;
        }

        Duration waitAhead() {
            return Duration.between(at, actual);
        }

        /** Error over the wait still ahead; an exact forecast of no wait is 0. */
        double errorFraction() {
            long wait = waitAhead().toMillis();
            return wait <= 0 ? (errorMinutes() == 0 ? 0 : 1) : Math.abs(Duration.between(actual, estimate).toMillis())
                    / (double) wait;
        }

        boolean exact() {
            return Duration.between(actual, estimate).abs().compareTo(ONE_CYCLE) <= 0;
        }

        boolean covered() {
            return p10 != null && p90 != null && !actual.isBefore(p10.minus(ONE_CYCLE))
                    && !actual.isAfter(p90.plus(ONE_CYCLE));
        }
    }

    /** One line of the table: a class, or all of them. */
    record Line(String name, int forecasts, double medianErrorMinutes, double p90ErrorMinutes,
                double medianErrorOfLongWaits, double p90ErrorOfLongWaits, int longWaits, double exact,
                double coverage) {
    }

    private final double spread;
    private final List<Sample> samples;
    private final int withoutEstimate;

    ReplayReport(double spread, List<Sample> samples, int withoutEstimate) {
        this.spread = spread;
        this.samples = List.copyOf(samples);
        this.withoutEstimate = withoutEstimate;
    }

    double spread() {
        return spread;
    }

    List<Sample> samples() {
        return samples;
    }

    /** Per class, then all classes together. */
    List<Line> lines(Predicate<Sample> which) {
        Map<String, List<Sample>> byClass = new LinkedHashMap<>();
        ReplayTrace.CLASSES.forEach(c -> byClass.put(c.name(), new ArrayList<>()));
        samples.stream().filter(which).forEach(s -> byClass.get(s.workloadClass()).add(s));
        List<Line> lines = new ArrayList<>();
        byClass.forEach((name, list) -> lines.add(line(name, list)));
        lines.add(line("all", samples.stream().filter(which).toList()));
        return lines;
    }

    /** The share of undisturbed forecasts that were exact. */
    double exactShareUndisturbed() {
        List<Sample> undisturbed = samples.stream().filter(s -> !s.disturbed()).toList();
        return share(undisturbed, Sample::exact);
    }

    long undisturbed() {
        return samples.stream().filter(s -> !s.disturbed()).count();
    }

    private static Line line(String name, List<Sample> list) {
        List<Sample> longWaits = list.stream().filter(s -> s.waitAhead().compareTo(LONG_WAIT) > 0).toList();
        return new Line(name, list.size(), quantile(list, Sample::errorMinutes, 0.5),
                quantile(list, Sample::errorMinutes, 0.9), quantile(longWaits, Sample::errorFraction, 0.5),
                quantile(longWaits, Sample::errorFraction, 0.9), longWaits.size(), share(list, Sample::exact),
                share(list, Sample::covered));
    }

    private static double share(List<Sample> list, Predicate<Sample> test) {
        return list.isEmpty() ? Double.NaN : list.stream().filter(test).count() / (double) list.size();
    }

    /** Nearest-rank quantile; NaN for none. */
    private static double quantile(List<Sample> list, ToDoubleFunction<Sample> value, double q) {
        if (list.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted = list.stream().mapToDouble(value).sorted().toArray();
        return sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)];
    }

    /** The table as Markdown, all forecasts and then those no later arrival could have changed. */
    String markdown() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "### Runtime spread %.0f%%%n%n", spread * 100));
        out.append(String.format(Locale.ROOT, "%d forecasts with an estimate (%d of them undisturbed by later "
                        + "arrivals), %d without one (during warm-up none is recorded).%n%n", samples.size(),
                undisturbed(), withoutEstimate));
        out.append("All forecasts:\n\n");
        table(out, lines(s -> true));
        out.append("\nForecasts that no later arrival could have changed:\n\n");
        table(out, lines(s -> !s.disturbed()));
        if (spread == 0) {
            List<Sample> inexact = samples.stream().filter(s -> !s.disturbed() && !s.exact()).toList();
            out.append(String.format(Locale.ROOT, "%nUndisturbed forecasts that were not exact: %d%n", inexact.size()));
            inexact.stream().limit(20).forEach(s -> out.append(String.format(Locale.ROOT,
                    "- %s at %s: forecast %s (%s), admitted %s%n", s.name(), s.at(), s.estimate(), s.basis(),
                    s.actual())));
        }
        return out.toString();
    }

    private static void table(StringBuilder out, List<Line> lines) {
        out.append("| class | forecasts | median abs error (min) | p90 abs error (min) | waits > 5 min "
                + "| median error / wait | p90 error / wait | exact (±1 cycle) | p10-p90 coverage |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        lines.stream().sorted(Comparator.comparing(l -> l.name().equals("all"))).forEach(l -> out.append(String.format(
                Locale.ROOT, "| %s | %d | %s | %s | %d | %s | %s | %s | %s |%n", l.name(), l.forecasts(),
                number(l.medianErrorMinutes()), number(l.p90ErrorMinutes()), l.longWaits(),
                percent(l.medianErrorOfLongWaits()), percent(l.p90ErrorOfLongWaits()), percent(l.exact()),
                percent(l.coverage()))));
    }

    private static String number(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String percent(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.0f%%", v * 100);
    }
}
