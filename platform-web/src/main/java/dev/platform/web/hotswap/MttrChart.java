package dev.platform.web.hotswap;

import dev.platform.web.console.HotswapView;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * MTTR over time as the coordinates of an inline SVG line chart, computed on the server so the
 * page needs no script: x is the detection time, y the seconds from detection to running again.
 */
public record MttrChart(List<Point> points, String polyline, double maxSeconds, Instant from, Instant to) {

    public static final int WIDTH = 640;
    public static final int HEIGHT = 200;
    public static final int LEFT = 48;
    public static final int BOTTOM = 24;
    public static final int TOP = 12;

    /**
     * One recovered event: its place on the chart and what its tooltip says ({@code label}: the workload and its MTTR;
     * the page adds when, as every console time reads).
     */
    public record Point(double x, double y, long eventId, Instant detectedAt, double seconds, String label) {
    }

    public static MttrChart of(List<HotswapView> events) {
        List<HotswapView> recovered = events.stream().filter(e -> e.mttrSeconds() != null)
                .sorted(Comparator.comparing(HotswapView::detectedAt).thenComparing(HotswapView::id)).toList();
        if (recovered.isEmpty()) {
            return new MttrChart(List.of(), "", 0, null, null);
        }
        Instant from = recovered.get(0).detectedAt();
        Instant to = recovered.get(recovered.size() - 1).detectedAt();
        double span = Math.max(1, to.toEpochMilli() - from.toEpochMilli());
        double max = recovered.stream().mapToDouble(HotswapView::mttrSeconds).max().orElse(0);
        double top = max <= 0 ? 1 : max;
        List<Point> points = recovered.stream().map(e -> {
            double x = recovered.size() == 1 ? LEFT + (WIDTH - LEFT) / 2.0
                    : LEFT + (e.detectedAt().toEpochMilli() - from.toEpochMilli()) / span * (WIDTH - LEFT - 8);
            double y = TOP + (1 - e.mttrSeconds() / top) * (HEIGHT - TOP - BOTTOM);
            return new Point(round(x), round(y), e.id(), e.detectedAt(), e.mttrSeconds(),
                    e.disrupted().namespace() + "/" + e.disrupted().name() + ": MTTR " + e.mttrText());
        }).toList();
        String polyline = String.join(" ", points.stream()
                .map(p -> String.format(Locale.ROOT, "%.1f,%.1f", p.x(), p.y())).toList());
        return new MttrChart(points, polyline, max, from, to);
    }

    public boolean isEmpty() {
        return points.isEmpty();
    }

    public String maxText() {
        return String.format(Locale.ROOT, "%.1f s", maxSeconds);
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
