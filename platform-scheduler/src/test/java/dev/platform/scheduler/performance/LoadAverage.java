package dev.platform.scheduler.performance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The 1-, 5- and 15-minute load averages at the start and the end of a measurement: on a machine shared with
 * other builds, the figure to read every other figure against. Empty where /proc/loadavg does not exist.
 */
public final class LoadAverage {

    private static final Path LOADAVG = Path.of("/proc/loadavg");

    private final List<Double> atStart;

    private LoadAverage(List<Double> atStart) {
        this.atStart = atStart;
    }

    public static LoadAverage start() {
        return new LoadAverage(now());
    }

    /** {@code {"start": [1m, 5m, 15m], "end": [...]}}. */
    public Map<String, Object> end() {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("start", atStart);
        load.put("end", now());
        return load;
    }

    public static List<Double> now() {
        try {
            String[] fields = Files.readString(LOADAVG).trim().split("\\s+");
            return List.of(Double.parseDouble(fields[0]), Double.parseDouble(fields[1]), Double.parseDouble(fields[2]));
        } catch (IOException e) {
            return List.of();
        }
    }
}
