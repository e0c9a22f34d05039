package dev.platform.scheduler.docs;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/configuration.md} lists every {@code platform.*} setting of the scheduler and the
 * agent as the configuration processor's metadata describes them (javadoc of the
 * {@code @ConfigurationProperties} records, and the additional metadata of the other settings), so
 * the document cannot drift from the code. When a setting changes, run this test with
 * {@code -Dplatform.docs.update=true} to rewrite the generated part, and commit the document.
 */
class ConfigurationDocTest {

    static final Path DOC = Path.of("..", "docs", "configuration.md");
    static final String MARKER = "<!-- generated from the configuration metadata by ConfigurationDocTest; do not edit below -->";

    @Test
    void theDocumentListsEverySettingAsTheMetadataDescribesIt() throws IOException {
        String doc = Files.readString(DOC);
        assertThat(doc).contains(MARKER);
        String expected = doc.substring(0, doc.indexOf(MARKER) + MARKER.length()) + "\n" + generated();

        if (Boolean.getBoolean("platform.docs.update")) {
            Files.writeString(DOC, expected);
        }

        assertThat(doc).as("docs/configuration.md is out of date: run ConfigurationDocTest with -Dplatform.docs.update=true")
                .isEqualTo(expected);
    }

    /** One table per group of settings (platform.scheduler, platform.agents, ..., platform.agent), sorted by name. */
    static String generated() throws IOException {
        Map<String, Map<String, JsonNode>> groups = new TreeMap<>();
        JsonMapper json = JsonMapper.builder().build();
        for (URL url : Collections.list(ConfigurationDocTest.class.getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"))) {
            try (InputStream in = url.openStream()) {
                for (JsonNode property : json.readTree(in).path("properties")) {
                    String name = property.path("name").asString();
                    if (name.startsWith("platform.")) {
                        String group = name.substring(0, name.indexOf('.', "platform.".length()));
                        groups.computeIfAbsent(group, g -> new TreeMap<>()).put(name, property);
                    }
                }
            }
        }
        StringBuilder out = new StringBuilder();
        groups.forEach((group, properties) -> {
            out.append("\n## `").append(group).append("`\n\n| setting | type | default | meaning |\n|---|---|---|---|\n");
            properties.forEach((name, p) -> out.append("| `").append(name).append("` | ")
                    .append(simpleType(p.path("type").asString())).append(" | ")
                    .append(defaultValue(p)).append(" | ")
                    .append(description(p.path("description").asString())).append(" |\n"));
        });
        return out.toString();
    }

    private static String defaultValue(JsonNode property) {
        if (!property.has("defaultValue")) {
            return "";
        }
        String value = property.path("defaultValue").asString();
        return value.isEmpty() ? "`\"\"`" : "`" + value + "`";
    }

    /**
     * {@code java.time.Duration} reads Duration, {@code java.util.List<java.lang.String>} List&lt;String&gt;,
     * {@code java.util.Map<java.lang.String,java.lang.Double>} Map of Double.
     */
    private static String simpleType(String type) {
        if (type.startsWith("java.util.Map<")) {
            return "Map of " + simpleType(type.substring(type.indexOf(',') + 1, type.length() - 1));
        }
        String simple = type.replaceAll("\\b[a-z][a-z0-9_]*\\.", "");
        return simple.contains("$") ? simple.substring(simple.lastIndexOf('$') + 1) : simple;
    }

    private static String description(String javadoc) {
        String text = javadoc.replaceAll("\\{@code ([^}]*)}", "`$1`").replaceAll("\\s+", " ").replace("|", "\\|").strip();
        return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
