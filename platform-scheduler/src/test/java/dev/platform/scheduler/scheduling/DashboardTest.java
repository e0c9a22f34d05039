package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PrometheusScrape;
import dev.platform.scheduler.testsupport.SeedManifests;
import dev.platform.scheduler.testsupport.SimulatedAgent;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Grafana dashboard shipped with the chart ({@code helm/platform/dashboards/platform.json})
 * asks only for metrics the platform exports: after a preemption and the seed's hotswap on the
 * simulated cluster, every metric name in every panel query and variable is among the samples
 * that the scheduler's {@code /actuator/prometheus} and the agent's registry expose.
 */
class DashboardTest extends PlatformApplicationTest {

    static final Path DASHBOARD = Path.of("..", "helm", "platform", "dashboards", "platform.json");

    /** PromQL words that look like metric names: functions are followed by "(", these are not always. */
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
            "and", "or", "unless", "offset", "bool", "inf", "nan");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    @Autowired
    SchedulingMetrics metrics;

    @Test
    void everyQueryOfTheDashboardUsesAMetricThePlatformExports() throws IOException {
        PrometheusMeterRegistry agentRegistry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        preemptAWorkload();
        try (SimulatedAgent agent = SimulatedAgent.start(port, api, agentRegistry)) {
            hotswapTheSeedsJobSet(agent);
        }
        metrics.refreshGauges();
        Set<String> exported = new TreeSet<>(PrometheusScrape.parse(api.get("/actuator/prometheus", "text/plain").body()).names());
        exported.addAll(PrometheusScrape.parse(agentRegistry.scrape()).names());

        List<String> queries = queries(JsonMapper.builder().build().readTree(Files.readString(DASHBOARD)));

        assertThat(queries).hasSizeGreaterThan(20);
        for (String query : queries) {
            Set<String> used = metricNames(query);
            assertThat(used).as("metrics in %s", query).isNotEmpty();
            assertThat(exported).as("exported metrics, for %s", query).containsAll(used);
        }
    }

    private void preemptAWorkload() {
        api.postYaml("/api/v1/manifests", Manifests.queue("dash-cq", "2", "LowerPriority"));
        api.postYaml("/api/v1/manifests", Manifests.priorityClass("low", 10) + "---\n" + Manifests.priorityClass("high", 100));
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("a", "lq", "2", "low"));
        awaitState("team-a", "a", "Admitted");
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("b", "lq", "2", "high"));
        awaitState("team-a", "b", "Admitted");
    }

    private void hotswapTheSeedsJobSet(SimulatedAgent agent) {
        api.postYaml("/api/v1/manifests", SeedManifests.read("seed-kueue-and-hotswap.yaml"));
        JsonNode running = awaitState("default", "high-jax-trillium", "Running");
        String pool = running.at("/admission/podSetAssignments/0/nodePools/0").asString();
        agent.cluster().failPool(pool);
        await().atMost(Duration.ofSeconds(60)).until(() -> api.get("/api/v1/hotswaps").json().at("/items/0"),
                e -> !e.isMissingNode() && !e.path("runningAt").isNull());
    }

    private JsonNode awaitState(String namespace, String name, String state) {
        return await().atMost(Duration.ofSeconds(30)).until(
                () -> api.get("/api/v1/namespaces/" + namespace + "/workloads/" + name).json(),
                w -> state.equals(w.path("state").asString()));
    }

    /** Panel target expressions and the variables' label_values queries. */
    private static List<String> queries(JsonNode dashboard) {
        List<String> queries = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            panel.path("targets").forEach(t -> queries.add(t.path("expr").asString()));
        }
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            if (variable.path("type").asString().equals("query")) {
                queries.add(variable.path("query").path("query").asString());
            }
        }
        return queries;
    }

    /**
     * Metric names in PromQL: identifiers outside label matchers, "by (...)" groupings and strings,
     * that are neither functions (followed by "(") nor keywords nor durations.
     */
    static Set<String> metricNames(String query) {
        if (query.startsWith("label_values(")) {
            return Set.of(query.substring("label_values(".length(), query.indexOf(',')).strip());
        }
        String bare = query.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ")
                .replaceAll("\\[[^]]*]", " ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(bare);
        while (m.find()) {
            String word = m.group();
            boolean function = bare.substring(m.end()).stripLeading().startsWith("(");
            boolean partOfNumber = m.start() > 0 && Character.isDigit(bare.charAt(m.start() - 1));
            if (!function && !partOfNumber && !KEYWORDS.contains(word.toLowerCase())) {
                names.add(word);
            }
        }
        return names;
    }
}
