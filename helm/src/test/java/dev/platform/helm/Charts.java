package dev.platform.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.util.Yaml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The charts under {@code helm/} through real Helm (helm-java's bundled library): lint and
 * template with a set of values, and the rendered manifests read back as client-java models.
 */
final class Charts {

    static final Path PLATFORM = Path.of("platform");
    static final Path AGENT = Path.of("platform-agent");
    static final String NAMESPACE = "queueing";

    private Charts() {
    }

    /**
     * Lints the chart as it would be installed with {@code values}: Helm's lint reads only the
     * chart's own values.yaml, so a copy of the chart gets the defaults merged with them.
     */
    static LintResult lint(Path chart, Map<String, Object> values) {
        try {
            Path copy = Files.createTempDirectory("chart-");
            Path root = copy.resolve(chart.getFileName());
            try (Stream<Path> files = Files.walk(chart)) {
                for (Path file : files.toList()) {
                    Path target = root.resolve(chart.relativize(file).toString());
                    if (Files.isDirectory(file)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(file, target);
                    }
                }
            }
            Map<String, Object> merged = merge(defaults(chart), values);
            Files.writeString(root.resolve("values.yaml"), new org.yaml.snakeyaml.Yaml().dump(merged));
            return new Helm(root).lint().strict().call();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code helm template <chart name> <chart> -n queueing -f <values>} (the release named as its chart,
     * as the README installs it), every document as a client-java model.
     */
    static List<KubernetesObject> template(Path chart, Map<String, Object> values) {
        String rendered = render(chart, values);
        List<KubernetesObject> objects = new ArrayList<>();
        try {
            for (Object document : Yaml.loadAll(rendered)) {
                assertThat(document).as("a Kubernetes object of a known kind").isInstanceOf(KubernetesObject.class);
                objects.add((KubernetesObject) document);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(objects).isNotEmpty();
        return objects;
    }

    /** Lints the chart with {@code values}, asserting it passes, and renders it. */
    static List<KubernetesObject> lintedAndRendered(Path chart, Map<String, Object> values) {
        LintResult lint = lint(chart, values);
        assertThat(lint.isFailed()).as(String.join("\n", lint.getMessages())).isFalse();
        return template(chart, values);
    }

    /** The rendered YAML; throws when Helm refuses the values (schema) or the templates fail. */
    static String render(Path chart, Map<String, Object> values) {
        try {
            Path file = Files.createTempFile("values-", ".yaml");
            Files.writeString(file, new org.yaml.snakeyaml.Yaml().dump(values));
            return new Helm(chart).template().withName(chart.getFileName().toString()).withNamespace(NAMESPACE).withValuesFile(file).call();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> defaults(Path chart) {
        try {
            return new org.yaml.snakeyaml.Yaml().load(Files.readString(chart.resolve("values.yaml")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static <T extends KubernetesObject> List<T> all(List<KubernetesObject> objects, Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    static <T extends KubernetesObject> T one(List<KubernetesObject> objects, Class<T> type) {
        List<T> found = all(objects, type);
        assertThat(found).as("one %s", type.getSimpleName()).hasSize(1);
        return found.get(0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> merge(Map<String, Object> base, Map<String, Object> override) {
        Map<String, Object> merged = new LinkedHashMap<>(base);
        override.forEach((key, value) -> {
            if (value instanceof Map<?, ?> child && merged.get(key) instanceof Map<?, ?> existing) {
                merged.put(key, merge((Map<String, Object>) existing, (Map<String, Object>) child));
            } else {
                merged.put(key, value);
            }
        });
        return merged;
    }
}
