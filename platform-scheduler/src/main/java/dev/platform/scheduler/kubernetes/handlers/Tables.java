package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.scheduler.kubernetes.registry.Objects;
import dev.platform.scheduler.kubernetes.registry.PrinterColumn;
import dev.platform.scheduler.kubernetes.registry.ResourceKind;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Server-side Tables ({@code meta.k8s.io/v1 Table}), which {@code kubectl get} asks for: the NAME column, the kind's
 * printer columns (priority 1 ones are {@code -o wide}'s), and per row the object's metadata (or the whole object
 * when asked), as kube-apiserver's table convertor for custom resources builds them.
 */
final class Tables {

    private static final Pattern FILTER = Pattern.compile("^\\[\\?\\(@\\.([A-Za-z0-9_]+)\\s*==\\s*['\"]([^'\"]*)['\"]\\)]");
    private static final Pattern INDEX = Pattern.compile("^\\[(\\d+)]");
    /**
     * The steps of each printer column's path, parsed once: a list page renders every column of hundreds of rows, and
     * matching the path's text for each cell was a tenth of a page's CPU. Only the registry's columns are parsed, so
     * the map stays as small as the registry.
     */
    private static final Map<String, List<Step>> PATHS = new ConcurrentHashMap<>();

    private final Clock clock;

    Tables(Clock clock) {
        this.clock = clock;
    }

    /** Whether an Accept header asks for a Table. */
    static boolean wanted(String accept) {
        return accept != null && accept.contains("as=Table");
    }

    Map<String, Object> table(ResourceKind kind, List<Map<String, Object>> objects, String resourceVersion,
                              String continueToken, String includeObject) {
        Map<String, Object> table = new LinkedHashMap<>();
        table.put("kind", "Table");
        table.put("apiVersion", "meta.k8s.io/v1");
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("resourceVersion", resourceVersion);
        if (continueToken != null) {
            metadata.put("continue", continueToken);
        }
        table.put("metadata", metadata);
        table.put("columnDefinitions", columnDefinitions(kind));
        table.put("rows", objects.stream().map(o -> row(kind, o, includeObject)).toList());
        return table;
    }

    List<Map<String, Object>> columnDefinitions(ResourceKind kind) {
        List<Map<String, Object>> columns = new ArrayList<>();
        columns.add(column("Name", "string", "name", "Name must be unique within a namespace. Is required when"
                + " creating resources, although some resources may allow a client to request the generation of an"
                + " appropriate name automatically. Name is primarily intended for creation idempotence and"
                + " configuration definition. Cannot be updated.", 0));
        for (PrinterColumn c : kind.columns()) {
            columns.add(column(c.name(), c.type().equals("date") ? "date" : c.type(), "", c.description(),
                    c.priority()));
        }
        return columns;
    }

    private static Map<String, Object> column(String name, String type, String format, String description,
                                              int priority) {
        Map<String, Object> column = new LinkedHashMap<>();
        column.put("name", name);
        column.put("type", type);
        column.put("format", format);
        column.put("description", description == null ? "" : description);
        column.put("priority", priority);
        return column;
    }

    Map<String, Object> row(ResourceKind kind, Map<String, Object> object, String includeObject) {
        List<Object> cells = new ArrayList<>();
        cells.add(Objects.name(object));
        for (PrinterColumn column : kind.columns()) {
            Object value = column.computed() != null ? column.computed().apply(object) : at(object, column.jsonPath());
            cells.add(cell(column, value));
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("cells", cells);
        if ("Object".equals(includeObject)) {
            row.put("object", object);
        } else if (!"None".equals(includeObject)) {
            Map<String, Object> partial = new LinkedHashMap<>();
            partial.put("kind", "PartialObjectMetadata");
            partial.put("apiVersion", "meta.k8s.io/v1");
            partial.put("metadata", Objects.metadata(object));
            row.put("object", partial);
        }
        return row;
    }

    private Object cell(PrinterColumn column, Object value) {
        if (value == null) {
            return null;
        }
        if (column.type().equals("date")) {
            try {
                return humanDuration(Duration.between(Instant.parse(String.valueOf(value)), clock.instant()));
            } catch (DateTimeParseException e) {
                return String.valueOf(value);
            }
        }
        if (column.type().equals("string")) {
            return value instanceof List<?> list ? String.join(",", list.stream().map(String::valueOf).toList())
                    : String.valueOf(value);
        }
        return value;
    }

    /** The value at a CRD printer column's JSONPath: {@code .a.b}, {@code .a[0]}, {@code .a[?(@.k=='v')].b}. */
    static Object at(Map<String, Object> object, String path) {
        Object current = object;
        for (Step step : PATHS.computeIfAbsent(path, Tables::steps)) {
            if (current == null) {
                return null;
            }
            current = step.from(current);
        }
        return current;
    }


    /** One step of a JSONPath: what it reads from the value the steps before it reached. */
    private interface Step {
        Object from(Object current);
    }

    private record Field(String name) implements Step {
        @Override
        public Object from(Object current) {
            return current instanceof Map<?, ?> map ? map.get(name) : null;
        }
    }

    private record Index(int index) implements Step {
        @Override
        public Object from(Object current) {
            return current instanceof List<?> list && index < list.size() ? list.get(index) : null;
        }
    }

    private record Filter(String key, String value) implements Step {
        @Override
        public Object from(Object current) {
            if (!(current instanceof List<?> list)) {
                return null;
            }
            return list.stream().filter(i -> i instanceof Map<?, ?> m && value.equals(String.valueOf(m.get(key))))
                    .findFirst().orElse(null);
        }
    }

    private static List<Step> steps(String path) {
        List<Step> steps = new ArrayList<>();
        String rest = path.startsWith(".") ? path.substring(1) : path;
        while (!rest.isEmpty()) {
            if (rest.startsWith(".")) {
                rest = rest.substring(1);
                continue;
            }
            Matcher filter = FILTER.matcher(rest);
            Matcher index = INDEX.matcher(rest);
            if (filter.find()) {
                steps.add(new Filter(filter.group(1), filter.group(2)));
                rest = rest.substring(filter.end());
            } else if (index.find()) {
                steps.add(new Index(Integer.parseInt(index.group(1))));
                rest = rest.substring(index.end());
            } else {
                int end = nextDelimiter(rest);
                steps.add(new Field(rest.substring(0, end)));
                rest = rest.substring(end);
            }
        }
        return List.copyOf(steps);
    }

    private static int nextDelimiter(String path) {
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '.' || c == '[') {
                return i;
            }
        }
        return path.length();
    }

    /** Kubernetes' HumanDuration: 45s, 5m10s, 3h, 2d5h, 400d, 3y. */
    static String humanDuration(Duration d) {
        long seconds = Math.max(0, d.getSeconds());
        if (seconds < 60 * 2) {
            return seconds + "s";
        }
        long minutes = seconds / 60;
        if (minutes < 10) {
            long s = seconds % 60;
            return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
        }
        if (minutes < 60 * 3) {
            return minutes + "m";
        }
        long hours = minutes / 60;
        if (hours < 8) {
            long m = minutes % 60;
            return m == 0 ? hours + "h" : hours + "h" + m + "m";
        }
        if (hours < 48) {
            return hours + "h";
        }
        if (hours < 24 * 8) {
            long h = hours % 24;
            return h == 0 ? hours / 24 + "d" : hours / 24 + "d" + h + "h";
        }
        if (hours < 24 * 365 * 2) {
            return hours / 24 + "d";
        }
        if (hours < 24 * 365 * 8) {
            long dy = (hours / 24) % 365;
            return dy == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + dy + "d";
        }
        return hours / 24 / 365 + "y";
    }
}
