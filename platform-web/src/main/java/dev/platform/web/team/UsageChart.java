package dev.platform.web.team;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Usage over time as server-rendered SVG geometry (no front-end build step): one line per
 * ClusterQueue, flavor and resource, as a share of its nominal quota (above 100% when borrowing).
 */
public record UsageChart(List<Line> lines, double maxPercent, Instant from, Instant to) {

    static final double LEFT = 48;
    static final double RIGHT = 632;
    static final double TOP = 12;
    static final double BOTTOM = 176;

    /** One series: its label, its points for the SVG, and the last value in words. */
    public record Line(String label, String points, String last, String cssClass) {
    }

    public boolean isEmpty() {
        return lines.isEmpty();
    }

    public String maxText() {
        return String.format(Locale.ROOT, "%.0f%%", maxPercent);
    }

    static UsageChart of(List<TeamQueries.UsageSeries> series) {
        List<TeamQueries.UsageSeries> drawn = series.stream().filter(s -> !s.points().isEmpty()).toList();
        if (drawn.isEmpty()) {
            return new UsageChart(List.of(), 100, null, null);
        }
        Instant from = drawn.stream().map(s -> s.points().get(0).at()).min(Instant::compareTo).orElseThrow();
        Instant to = drawn.stream().map(s -> s.points().get(s.points().size() - 1).at()).max(Instant::compareTo)
                .orElseThrow();
        double maxPercent = Math.max(100, drawn.stream().flatMap(s -> s.points().stream())
                .mapToDouble(UsageChart::percent).max().orElse(100));
        double span = Math.max(1, Duration.between(from, to).toMillis());
        List<Line> lines = new ArrayList<>();
        for (int i = 0; i < drawn.size(); i++) {
            TeamQueries.UsageSeries s = drawn.get(i);
            StringBuilder points = new StringBuilder();
            for (TeamQueries.UsagePoint p : s.points()) {
                double x = LEFT + (RIGHT - LEFT) * Duration.between(from, p.at()).toMillis() / span;
                double y = BOTTOM - (BOTTOM - TOP) * percent(p) / maxPercent;
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
            }
            TeamQueries.UsagePoint last = s.points().get(s.points().size() - 1);
            lines.add(new Line(s.clusterQueue() + " · " + s.flavor() + " / " + s.resource(), points.toString().trim(),
                    String.format(Locale.ROOT, "%.0f%% of %s", percent(last), s.nominalQuota()), "series-" + (i % 6)));
        }
        return new UsageChart(lines, maxPercent, from, to);
    }

    private static double percent(TeamQueries.UsagePoint p) {
        return p.nominal() <= 0 ? 0 : 100 * p.used() / p.nominal();
    }
}
