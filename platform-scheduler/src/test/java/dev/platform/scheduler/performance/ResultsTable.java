package dev.platform.scheduler.performance;

import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static dev.platform.scheduler.performance.PerformanceResults.format;

/**
 * The generated part of docs/performance.md: every figure beside Kueue's published one and beside its goal, and
 * when, where and under what load each was measured.
 */
final class ResultsTable {

    /**
     * Whether a measured value meets its goal; the threshold may depend on other figures (the lower bound). A goal
     * set against Kueue's run of a shape holds only for a run of the same size: {@code incomparable} says why not.
     */
    private record Goal(String text, boolean atMost, boolean inclusive, Function<JsonNode, Double> threshold,
                        Function<JsonNode, String> incomparable) {

        Goal(String text, boolean atMost, boolean inclusive, Function<JsonNode, Double> threshold) {
            this(text, atMost, inclusive, threshold, r -> null);
        }

        static Goal atMost(String text, double limit) {
            return new Goal(text, true, true, r -> limit);
        }

        static Goal below(String text, double limit) {
            return new Goal(text, true, false, r -> limit);
        }

        static Goal atLeast(String text, double limit) {
            return new Goal(text, false, true, r -> limit);
        }

        /** This goal, judged only when {@code section} ran Kueue's {@code workloads}; otherwise not comparable. */
        Goal onKueueSize(String section, int workloads) {
            return new Goal(text, atMost, inclusive, threshold, r -> {
                JsonNode ran = r.at("/" + section + "/workloads");
                return ran.isNumber() && ran.asInt() == workloads ? null
                        : "not comparable: " + ran.asString("an unknown number of") + " of Kueue's "
                        + format(workloads) + " workloads";
            });
        }

        String verdict(double measured, JsonNode results) {
            String notComparable = incomparable.apply(results);
            if (notComparable != null) {
                return notComparable;
            }
            Double limit = threshold.apply(results);
            if (limit == null) {
                return "";
            }
            boolean met = atMost ? (inclusive ? measured <= limit : measured < limit) : measured >= limit;
            if (met) {
                return "met";
            }
            double by = atMost ? measured / limit : limit / measured;
            return Double.isFinite(by) ? "**missed** (" + format(by) + "x)" : "**missed**";
        }
    }

    private record Row(String figure, Function<JsonNode, Double> measured, String unit, String kueue, Goal goal) {
    }

    private static final Goal NONE = new Goal("", true, true, r -> null);
    /** The workloads of Kueue's baseline and large-scale generator configurations. */
    static final int BASELINE_WORKLOADS = 15_000;
    static final int LARGE_SCALE_WORKLOADS = 50_000;

    private ResultsTable() {
    }

    private static Function<JsonNode, Double> at(String pointer) {
        return results -> {
            JsonNode value = results.at(pointer);
            return value.isNumber() ? value.asDouble() : null;
        };
    }

    private static Function<JsonNode, Double> ratio(String numerator, String denominator) {
        return results -> {
            Double n = at(numerator).apply(results);
            Double d = at(denominator).apply(results);
            return n == null || d == null || d == 0 ? null : n / d;
        };
    }

    private static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        rows.add(new Row("baseline: wall time", at("/baseline/wallSeconds"), "s", "351 s (CI limit 425 s)",
                new Goal("≤ 2 x lower bound", true, true, r -> {
                    Double bound = at("/baseline/lowerBoundSeconds").apply(r);
                    return bound == null ? null : 2 * bound;
                }).onKueueSize("baseline", BASELINE_WORKLOADS)));
        rows.add(new Row("baseline: capacity lower bound of the makespan", at("/baseline/lowerBoundSeconds"), "s",
                "66 s (same shape)", NONE));
        rows.add(new Row("baseline: wall time / lower bound", at("/baseline/ratioToLowerBound"), "x", "5.3x",
                Goal.atMost("≤ 2x", 2).onKueueSize("baseline", BASELINE_WORKLOADS)));
        for (String[] c : new String[][] {{"large", "16.5"}, {"medium", "76.8"}, {"small", "215.5"}}) {
            rows.add(new Row("baseline: mean time to admission, " + c[0],
                    at("/baseline/meanTimeToAdmissionSeconds/" + c[0]), "s", c[1] + " s",
                    Goal.below("< " + c[1] + " s (Kueue's)", Double.parseDouble(c[1]))
                            .onKueueSize("baseline", BASELINE_WORKLOADS)));
        }
        rows.add(new Row("baseline: usage of all ClusterQueues", at("/baseline/clusterQueueUsagePercent"), "%",
                "55.9 % (CI limit 50 %)", NONE));
        rows.add(new Row("baseline: usage of the least used ClusterQueue", at("/baseline/minClusterQueueUsagePercent"),
                "%", "not published per queue", NONE));
        rows.add(new Row("large-scale: wall time", at("/largeScale/wallSeconds"), "s", "1,179 s (CI limit 1,416 s)",
                Goal.below("< 600 s (half of Kueue's)", 600).onKueueSize("largeScale", LARGE_SCALE_WORKLOADS)));
        rows.add(new Row("large-scale: capacity lower bound of the makespan", at("/largeScale/lowerBoundSeconds"),
                "s", "4.0 s (same shape)", NONE));
        for (String[] c : new String[][] {{"large", "105.6"}, {"medium", "256.4"}, {"small", "700.4"}}) {
            rows.add(new Row("large-scale: mean time to admission, " + c[0],
                    at("/largeScale/meanTimeToAdmissionSeconds/" + c[0]), "s", c[1] + " s", NONE));
        }
        rows.add(new Row("large-scale: usage of all ClusterQueues", at("/largeScale/clusterQueueUsagePercent"), "%",
                "38.6 %", NONE));
        rows.add(new Row("large-scale: quota held beyond the runtime, p99", at("/largeScale/quotaHeldBeyondRuntimeP99Seconds"),
                "s", "", Goal.below("< 1 s", 1)));
        rows.add(new Row("REST submissions per second", at("/rest/submissionsPerSecond"), "/s", "no published figure",
                Goal.atLeast("≥ 1,000/s", 1000)));
        rows.add(new Row("REST submission latency p99", at("/rest/p99Millis"), "ms", "no published figure",
                Goal.below("< 50 ms", 50)));
        rows.add(new Row("REST submissions per second, Idempotency-Key",
                at("/rest/withIdempotencyKey/submissionsPerSecond"), "/s", "", Goal.atLeast("≥ 1,000/s", 1000)));
        rows.add(new Row("REST submission latency p99, Idempotency-Key", at("/rest/withIdempotencyKey/p99Millis"),
                "ms", "", Goal.below("< 50 ms", 50)));
        rows.add(new Row("pgbench simple-update, same clients, same server", at("/pgbench/tps"), "tps", "", NONE));
        rows.add(new Row("REST submissions / pgbench transactions", ratio("/rest/submissionsPerSecond",
                "/pgbench/tps"), "x", "", NONE));
        rows.add(new Row("agent commands executed and acknowledged per second (simulated cluster)",
                at("/agent/commandsPerSecond"), "/s", "", Goal.atLeast("≥ 2,000/s", 2000)));
        rows.add(new Row("durable admissions per second (deep backlog)", at("/admission/perSecond"), "/s",
                "no published figure", Goal.atLeast("≥ 5,000/s", 5000)));
        rows.add(new Row("admissions / pgbench transactions", ratio("/admission/perSecond", "/pgbench/tps"), "x", "",
                NONE));
        rows.add(new Row("scheduler live heap, 100,000 pending + 50,000 admitted", at("/heap/pending100kMiB"),
                "MiB", "", Goal.atMost("≤ 1,024 MiB", 1024)));
        rows.add(new Row("state rebuild at that size", at("/heap/rebuildSeconds"), "s", "", Goal.below("< 30 s", 30)));
        rows.add(new Row("process launch to state rebuilt at that size", at("/heap/readySeconds"), "s", "", NONE));
        rows.add(new Row("process launch to every pending reason recorded at that size",
                at("/heap/launchToDecisionsSeconds"), "s", "", Goal.below("< 15 s", 15)));
        rows.add(new Row("Kubernetes API: list page of 500 workloads as a Table, p50", at("/kubernetesList/p50Millis"),
                "ms", "", NONE));
        rows.add(new Row("Kubernetes API: list page of 500 workloads as a Table, p99", at("/kubernetesList/p99Millis"),
                "ms", "", Goal.below("< 100 ms", 100)));
        rows.add(new Row("Kubernetes API: changes committed per second under the watchers",
                at("/kubernetesWatch/changesPerSecond"), "/s", "", NONE));
        rows.add(new Row("Kubernetes API: changes not delivered to a watcher", at("/kubernetesWatch/missing"), "", "",
                Goal.atMost("0", 0)));
        rows.add(new Row("Kubernetes API: watch delivery lag p99", at("/kubernetesWatch/lagP99Millis"), "ms", "",
                Goal.below("< 1,000 ms", 1000)));
        rows.add(new Row("kubectl apply -f of 1,000 JobSets", at("/kubernetesApply/kubectlSeconds"), "s", "", NONE));
        rows.add(new Row("the same file through POST /api/v1/manifests", at("/kubernetesApply/manifestsSeconds"), "s",
                "", NONE));
        rows.add(new Row("hotswap decision p99 (1,000 pools, 10,000 running)", at("/hotswap/decisionP99Millis"), "ms",
                "", Goal.atMost("≤ 100 ms", 100)));
        rows.add(new Row("console render p95, slowest page (100,000 workloads)", at("/console/renderP95Millis"), "ms",
                "", Goal.below("< 150 ms", 150)));
        rows.add(new Row("core admission decisions per second (CPU time)", at("/core/decisionsPerSecond"), "/s", "",
                Goal.atLeast("≥ 20,000/s", 20000)));
        rows.add(new Row("core preemption decision p99, 10,000 candidates (CPU time)",
                at("/core/preemptionP99Millis"), "ms", "", Goal.atMost("≤ 5 ms", 5)));
        rows.add(new Row("forecast: copy of every cohort tree, 150,000 workloads (CPU time)",
                at("/forecast/copyMillis"), "ms", "", NONE));
        return rows;
    }

    static String markdown(JsonNode results) {
        StringBuilder md = new StringBuilder();
        JsonNode run = results.path("run");
        md.append("Published ").append(run.path("publishedAt").asString("")).append(" by `")
                .append(run.path("command").asString("")).append("` on ").append(run.path("cpu").asString(""))
                .append(", ").append(run.path("memoryGiB").asString("")).append(" GiB, ")
                .append(run.path("java").asString("")).append(". All figures in `docs/performance/results.json`.\n\n");
        md.append("| figure | measured | Kueue | goal | verdict |\n|---|---|---|---|---|\n");
        for (Row row : rows()) {
            Double measured = row.measured().apply(results);
            md.append("| ").append(row.figure()).append(" | ")
                    .append(measured == null ? "not measured" : format(measured) + " " + row.unit()).append(" | ")
                    .append(row.kueue()).append(" | ").append(row.goal().text()).append(" | ")
                    .append(measured == null ? "" : row.goal().verdict(measured, results)).append(" |\n");
        }
        md.append("\n| measurement | size | at | load average (1 min) start → end | where |\n|---|---|---|---|---|\n");
        results.properties().forEach(section -> {
            if (section.getKey().equals("run")) {
                return;
            }
            JsonNode s = section.getValue();
            JsonNode load = s.path("loadAverage");
            md.append("| ").append(section.getKey()).append(" | ").append(size(section.getKey(), s)).append(" | ")
                    .append(s.path("measuredAt").asString(""))
                    .append(" | ").append(load.path("start").path(0).isMissingNode() ? "" : load.path("start").path(0)
                            .asString() + " → ").append(load.path("end").path(0).asString(""))
                    .append(" | ").append(s.path("host").asString("")).append(" |\n");
        });
        return md.toString();
    }

    /** What a section measured, from its own figures: a run at a reduced size says so here. */
    private static String size(String section, JsonNode s) {
        return switch (section) {
            case "baseline", "largeScale" -> s.path("shape").asString("");
            case "rest" -> s.path("submissions").asString("") + " submissions per variant, "
                    + s.path("clients").asString("") + " clients"
                    + (s.has("loadGenerator") ? ", " + s.path("loadGenerator").asString("") : "");
            case "agent" -> s.path("workloads").asString("") + " workloads, a START and a STOP each";
            case "pgbench" -> s.path("clients").asString("") + " clients, single client too";
            case "admission" -> s.path("backlog").asString("") + " pending in " + s.path("clusterQueues").asString("")
                    + " ClusterQueues";
            case "heap" -> s.path("pending").asString("") + " pending + " + s.path("admitted").asString("")
                    + " admitted in " + s.path("clusterQueues").asString("") + " ClusterQueues";
            case "kubernetesList" -> s.path("workloads").asString("") + " workloads, pages of "
                    + s.path("pageSize").asString("") + " as Tables, " + s.path("passes").asString("") + " passes";
            case "kubernetesWatch" -> s.path("watchers").asString("") + " watchers, "
                    + s.path("changes").asString("") + " changes in " + s.path("seconds").asString("") + " s";
            case "kubernetesApply" -> s.path("jobSets").asString("") + " JobSets in one file";
            default -> s.path("data").asString(s.path("clock").asString(""));
        };
    }
}
