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
 * as a fraction of the wait still ahead when the forecast was made, per workload class, how often the p10-p90
 * range held the actual admission, and the calibration summary (over forecasts made more than {@link #LONG_WAIT}
 * before the admission): median error over the wait, coverage, and the shares within one and within ten minutes,
 * for the estimate and for the time if nothing arrives.
 */
final class ReplayReport {

    /** A forecast admission within this of the actual one counts as exact: the replay's clock stands still. */
    static final Duration ONE_CYCLE = Duration.ofSeconds(1);
    /** The wait beyond which the relative error is judged. */
    static final Duration LONG_WAIT = Duration.ofMinutes(5);
    static final Duration ONE_MINUTE = Duration.ofMinutes(1);
    static final Duration TEN_MINUTES = Duration.ofMinutes(10);

    /**
     * A forecast with an estimate, made {@code at} for workload {@code name}, and the admission that followed.
     * {@code disturbed}: a workload that arrived after the forecast was made was admitted in the same cohort tree
     * no later than this one, so the forecast could not have known what decided the outcome.
     * {@code ifNothingArrives}: the forecast's admission if nothing new arrives; {@code arrivalBasis}: whether its
     * estimate expected arrivals; {@code widened}: whether the cohort tree's record of past waits widened its range.
     */
    record Sample(String workloadClass, String name, Instant at, Instant estimate, Instant p10, Instant p90,
                  String basis, Instant actual, boolean disturbed, Instant ifNothingArrives, String arrivalBasis,
                  boolean widened) {

        /** The same forecast judged by its time if nothing arrives, which has no range. */
        Sample ifNothingArrivesOnly() {
            return new Sample(workloadClass, name, at, ifNothingArrives, null, null, basis, actual, disturbed,
                    ifNothingArrives, arrivalBasis, false);
        }

        boolean within(Duration tolerance) {
            return Duration.between(actual, estimate).abs().compareTo(tolerance) <= 0;
        }

        boolean longWait() {
            return waitAhead().compareTo(LONG_WAIT) > 0;
        }

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

    /**
     * The calibration of a set of forecasts, over those made more than {@link #LONG_WAIT} before the admission
     * ({@code longWaits} of them): of the estimate, then of the time if nothing arrives (which has no range).
     */
    record Calibration(int forecasts, int longWaits, double medianErrorOverWait, double p10p90Coverage,
                       double within1Minute, double within10Minutes, double ifNothingArrivesMedianErrorOverWait,
                       double ifNothingArrivesWithin1Minute, double ifNothingArrivesWithin10Minutes) {

        Map<String, Object> json() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("forecasts", forecasts);
            json.put("forecastsOverFiveMinutes", longWaits);
            json.put("medianErrorOverWait", round(medianErrorOverWait));
            json.put("p10p90Coverage", round(p10p90Coverage));
            json.put("within1Minute", round(within1Minute));
            json.put("within10Minutes", round(within10Minutes));
            Map<String, Object> alone = new LinkedHashMap<>();
            alone.put("medianErrorOverWait", round(ifNothingArrivesMedianErrorOverWait));
            alone.put("within1Minute", round(ifNothingArrivesWithin1Minute));
            alone.put("within10Minutes", round(ifNothingArrivesWithin10Minutes));
            json.put("ifNothingArrives", alone);
            return json;
        }

        private static Object round(double v) {
            return Double.isNaN(v) ? null : Math.round(v * 10_000) / 10_000.0;
        }
    }

    private final double spread;
    private final Instant arrivalsEnd;
    private final List<Sample> samples;
    private final int withoutEstimate;

    /** {@code arrivalsEnd}: when the trace's arrival phase ended and the backlog began to drain. */
    ReplayReport(double spread, Instant arrivalsEnd, List<Sample> samples, int withoutEstimate) {
        this.spread = spread;
        this.arrivalsEnd = arrivalsEnd;
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

    /** The share of undisturbed forecasts whose time if nothing arrives was exact. */
    double exactShareUndisturbed() {
        List<Sample> undisturbed = samples.stream().filter(s -> !s.disturbed()).map(Sample::ifNothingArrivesOnly)
                .toList();
        return share(undisturbed, Sample::exact);
    }

    /** The calibration of the forecasts {@code which} selects. */
    Calibration calibration(Predicate<Sample> which) {
        List<Sample> chosen = samples.stream().filter(which).toList();
        List<Sample> longWaits = chosen.stream().filter(Sample::longWait).toList();
        List<Sample> alone = longWaits.stream().map(Sample::ifNothingArrivesOnly).toList();
        return new Calibration(chosen.size(), longWaits.size(), quantile(longWaits, Sample::errorFraction, 0.5),
                share(longWaits, Sample::covered), share(longWaits, s -> s.within(ONE_MINUTE)),
                share(longWaits, s -> s.within(TEN_MINUTES)), quantile(alone, Sample::errorFraction, 0.5),
                share(alone, s -> s.within(ONE_MINUTE)), share(alone, s -> s.within(TEN_MINUTES)));
    }

    /**
     * The calibrations of all forecasts, of those no later arrival could change and of the others, and of those
     * made while the trace's arrivals went on and after (when they had stopped, which no history can tell).
     */
    Map<String, Calibration> calibrations() {
        Map<String, Calibration> all = new LinkedHashMap<>();
        all.put("all", calibration(s -> true));
        all.put("undisturbed", calibration(s -> !s.disturbed()));
        all.put("disturbed", calibration(Sample::disturbed));
        all.put("duringArrivals", calibration(this::duringArrivals));
        all.put("afterArrivals", calibration(s -> !duringArrivals(s)));
        return all;
    }

    boolean duringArrivals(Sample s) {
        return s.at().isBefore(arrivalsEnd);
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

    /** Every forecast and its admission, one line each, for a closer look than the tables give. */
    String csv() {
        StringBuilder out = new StringBuilder("spread,class,name,at,estimate,p10,p90,ifNothingArrives,actual,basis,"
                + "arrivalBasis,disturbed,widened\n");
        samples.forEach(s -> out.append(String.join(",", Double.toString(spread), s.workloadClass(), s.name(),
                String.valueOf(s.at()), String.valueOf(s.estimate()), String.valueOf(s.p10()), String.valueOf(s.p90()),
                String.valueOf(s.ifNothingArrives()), String.valueOf(s.actual()), s.basis(), s.arrivalBasis(),
                Boolean.toString(s.disturbed()), Boolean.toString(s.widened()))).append('\n'));
        return out.toString();
    }

    /** Forecasts whose range the cohort tree's record of past waits widened. */
    long widened() {
        return samples.stream().filter(Sample::widened).count();
    }

    /** The table as Markdown, all forecasts and then those no later arrival could have changed. */
    String markdown() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "### Runtime spread %.0f%%%n%n", spread * 100));
        out.append(String.format(Locale.ROOT, "%d forecasts with an estimate (%d of them undisturbed by later "
                        + "arrivals), %d without one (during warm-up none is recorded).%n%n", samples.size(),
                undisturbed(), withoutEstimate));
        out.append("Calibration, over the forecasts made more than 5 minutes before the admission:\n\n");
        out.append("| forecasts | > 5 min | median error / wait | p10-p90 coverage | within 1 min | within 10 min "
                + "| if nothing arrives: median error / wait | within 1 min | within 10 min |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        calibrations().forEach((name, c) -> out.append(String.format(Locale.ROOT,
                "| %s | %d | %s | %s | %s | %s | %s | %s | %s |%n", name, c.longWaits(),
                percent(c.medianErrorOverWait()), percent(c.p10p90Coverage()), percent(c.within1Minute()),
                percent(c.within10Minutes()), percent(c.ifNothingArrivesMedianErrorOverWait()),
                percent(c.ifNothingArrivesWithin1Minute()), percent(c.ifNothingArrivesWithin10Minutes()))));
        long withArrivals = samples.stream().filter(s -> "ArrivalHistory".equals(s.arrivalBasis())).count();
        out.append(String.format(Locale.ROOT, "%n%d of the %d forecasts expected arrivals (the others were made "
                + "before the submission history was long enough).%n", withArrivals, samples.size()));
        out.append(String.format(Locale.ROOT, "%d of the %d had their range widened by the cohort tree's record of "
                + "past waits (the others came before the record held enough waits, or their simulated range already "
                + "held the record's).%n%n", widened(), samples.size()));
        out.append("All forecasts:\n\n");
        table(out, lines(s -> true));
        out.append("\nForecasts that no later arrival could have changed:\n\n");
        table(out, lines(s -> !s.disturbed()));
        if (spread == 0) {
            List<Sample> inexact = samples.stream().filter(s -> !s.disturbed() && !s.ifNothingArrivesOnly().exact())
                    .toList();
            out.append(String.format(Locale.ROOT, "%nUndisturbed forecasts whose time if nothing arrives was not exact:"
                    + " %d%n", inexact.size()));
            inexact.stream().limit(20).forEach(s -> out.append(String.format(Locale.ROOT,
                    "- %s at %s: forecast if nothing arrives %s (%s), admitted %s%n", s.name(), s.at(),
                    s.ifNothingArrives(), s.basis(), s.actual())));
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
