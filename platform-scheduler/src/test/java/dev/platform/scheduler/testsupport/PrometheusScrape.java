package dev.platform.scheduler.testsupport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** The Prometheus text exposition format, read into samples and metric families. */
public record PrometheusScrape(List<Sample> samples) {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+).*$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern TYPE = Pattern.compile("^# TYPE (\\S+) (\\S+)$");

    /** One line: a sample's name (with its _bucket/_count/_sum/_total suffix), labels and value. */
    public record Sample(String name, Map<String, String> labels, double value, String family, String type) {
    }

    public static PrometheusScrape parse(String text) {
        List<Sample> samples = new ArrayList<>();
        Map<String, String> types = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            Matcher type = TYPE.matcher(line);
            if (type.matches()) {
                types.put(type.group(1), type.group(2));
                continue;
            }
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher sample = SAMPLE.matcher(line);
            if (!sample.matches()) {
                throw new IllegalArgumentException("not a Prometheus sample: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (sample.group(2) != null) {
                Matcher label = LABEL.matcher(sample.group(2));
                while (label.find()) {
                    labels.put(label.group(1), label.group(2));
                }
            }
            String family = family(sample.group(1), types);
            samples.add(new Sample(sample.group(1), labels, Double.parseDouble(sample.group(3)), family,
                    types.getOrDefault(family, "untyped")));
        }
        return new PrometheusScrape(List.copyOf(samples));
    }

    /** The family a sample belongs to, as its # TYPE line names it (a counter's family is named without _total). */
    private static String family(String name, Map<String, String> types) {
        for (String suffix : List.of("_bucket", "_count", "_sum", "_total", "_created", "_max")) {
            if (name.endsWith(suffix) && types.containsKey(name.substring(0, name.length() - suffix.length()))) {
                return name.substring(0, name.length() - suffix.length());
            }
        }
        return name;
    }

    /** Every sample name, e.g. {@code kueue_admitted_workloads_total}, {@code kueue_admission_wait_time_seconds_bucket}. */
    public Set<String> names() {
        return samples.stream().map(Sample::name).collect(Collectors.toCollection(TreeSet::new));
    }

    public List<Sample> family(String family) {
        return samples.stream().filter(s -> s.family().equals(family)).toList();
    }

    public Set<String> families() {
        return samples.stream().map(Sample::family).collect(Collectors.toCollection(TreeSet::new));
    }
}
