package dev.platform.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Each chart README's values table lists exactly the chart's values: every key of values.yaml (down
 * to where values.schema.json stops describing properties) has a row with its default, and no row
 * names a value that no longer exists.
 */
class ChartReadmeTest {

    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| (.*?) \\| .+\\|$", Pattern.MULTILINE);

    @ParameterizedTest
    @ValueSource(strings = {"platform", "platform-agent"})
    void theValuesTableListsEveryValueWithItsDefault(String chart) throws IOException {
        Path dir = Path.of(chart);
        JsonNode schema = JsonMapper.builder().build().readTree(Files.readString(dir.resolve("values.schema.json")));
        List<String> documented = new ArrayList<>();
        String readme = Files.readString(dir.resolve("README.md"));
        Matcher row = ROW.matcher(readme.substring(readme.indexOf("## Values")));
        while (row.find()) {
            documented.add(row.group(1));
        }
        List<String> keys = new ArrayList<>();
        collect(schema, Charts.defaults(dir), "", keys);

        assertThat(documented).containsExactlyInAnyOrderElementsOf(keys);
    }

    @SuppressWarnings("unchecked")
    private static void collect(JsonNode schema, Map<String, Object> values, String prefix, List<String> keys) {
        values.forEach((key, value) -> {
            JsonNode property = schema.path("properties").path(key);
            assertThat(property.isMissingNode()).as("values.schema.json describes %s%s", prefix, key).isFalse();
            if (property.has("properties") && value instanceof Map<?, ?> child) {
                collect(property, (Map<String, Object>) child, prefix + key + ".", keys);
            } else {
                keys.add(prefix + key);
            }
        });
    }
}
