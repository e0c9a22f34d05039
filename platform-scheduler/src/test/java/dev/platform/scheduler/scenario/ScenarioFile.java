package dev.platform.scheduler.scenario;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.platform.scheduler.testsupport.YamlTree.list;
import static dev.platform.scheduler.testsupport.YamlTree.str;

/**
 * One file of {@code src/test/resources/scenarios} (format in its README) as plain YAML maps. A
 * file that cannot be replayed through the REST API says {@code rest: false}, with the reason in
 * a comment next to it; the core's runner ignores the key.
 */
record ScenarioFile(String file, Map<String, Object> doc) {

    /**
     * Every file, or those whose names start with one of the comma-separated prefixes of system
     * property {@code scenarios} (for example {@code -Dscenarios=p01,fs}).
     */
    static List<ScenarioFile> all() {
        List<String> only = System.getProperty("scenarios", "").isBlank() ? List.of()
                : List.of(System.getProperty("scenarios").split(","));
        try {
            Path dir = Paths.get(ScenarioFile.class.getResource("/scenarios").toURI());
            try (Stream<Path> files = Files.list(dir)) {
                return files.filter(p -> p.toString().endsWith(".yaml"))
                        .filter(p -> only.isEmpty() || only.stream().anyMatch(p.getFileName().toString()::startsWith))
                        .sorted().map(ScenarioFile::load).toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ScenarioFile load(Path path) {
        try (InputStream in = Files.newInputStream(path)) {
            Map<String, Object> doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
            return new ScenarioFile(path.getFileName().toString(), doc);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    boolean replayableThroughRest() {
        return !Boolean.FALSE.equals(doc.get("rest"));
    }

    boolean fairSharing() {
        return Boolean.TRUE.equals(doc.get("fairSharing"));
    }

    /** Whether the file exercises the leader's lifecycle timers (it sets waitForPodsReady): see LifecycleScenarioRestTest. */
    boolean lifecycle() {
        return doc.containsKey("waitForPodsReady");
    }

    /** Whether the file sets admission fair sharing (its {@code admissionFairSharing} block). */
    boolean admissionFairSharing() {
        return doc.containsKey("admissionFairSharing");
    }

    /** Whether any ClusterQueue or LocalQueue has a stopPolicy other than None. */
    boolean stopsQueues() {
        return Stream.concat(section("clusterQueues").stream(), section("localQueues").stream())
                .map(q -> q.get("stopPolicy")).anyMatch(p -> p != null && !"None".equals(p));
    }

    String name() {
        return str(doc.get("name"));
    }

    List<Map<String, Object>> section(String key) {
        return list(doc.get(key));
    }


    static String namespace(Map<String, Object> workload) {
        Object ns = workload.get("namespace");
        return ns == null ? "default" : String.valueOf(ns);
    }
}
