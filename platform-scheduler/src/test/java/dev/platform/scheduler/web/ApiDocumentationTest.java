package dev.platform.scheduler.web;

import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The examples of {@code docs/api.md} run against the application, in order: each ```http block
 * is sent through the test client, and the ```json block after it states the status and the
 * fields the answer must have. {@code "…"} matches any value; an array shows elements the answer
 * has in that order; a GET is repeated until the platform reaches the state shown.
 */
class ApiDocumentationTest extends PlatformApplicationTest {

    static final Path API_DOC = Path.of("..", "docs", "api.md");
    private static final Pattern EXAMPLE = Pattern.compile(
            "```http\\n(.*?)```.*?```json status=(\\d{3})\\n(.*?)```", Pattern.DOTALL);
    private static final String ANY = "…";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    record Example(String method, String path, String contentType, String body, int status, JsonNode expected) {
    }

    @Test
    void theDocumentedRequestsGetTheDocumentedAnswers() throws IOException {
        List<Example> examples = examples(Files.readString(API_DOC));

        assertThat(examples).hasSizeGreaterThanOrEqualTo(8);
        for (Example example : examples) {
            Response response = example.method().equals("GET")
                    ? await().atMost(Duration.ofSeconds(20)).until(() -> send(example), r -> mismatch(example, r).isEmpty())
                    : send(example);
            assertThat(mismatch(example, response)).as("%s %s answered %s %s", example.method(), example.path(),
                    response.status(), response.body()).isEmpty();
        }
    }

    private Response send(Example example) {
        return switch (example.method()) {
            case "GET" -> api.get(example.path());
            case "DELETE" -> api.delete(example.path());
            case "POST" -> api.post(example.path(), example.contentType(), example.body());
            default -> throw new IllegalArgumentException("no example method " + example.method());
        };
    }

    private static Optional<String> mismatch(Example example, Response response) {
        if (response.status() != example.status()) {
            return Optional.of("status " + response.status());
        }
        return mismatch("", example.expected(), response.json());
    }

    /** Where {@code actual} differs from what the document shows, if anywhere. */
    static Optional<String> mismatch(String at, JsonNode expected, JsonNode actual) {
        if (expected.isString() && expected.asString().equals(ANY)) {
            return actual == null || actual.isMissingNode() || actual.isNull() ? Optional.of(at + " missing") : Optional.empty();
        }
        if (expected.isObject()) {
            for (var field : expected.properties()) {
                Optional<String> inner = mismatch(at + "." + field.getKey(), field.getValue(), actual.path(field.getKey()));
                if (inner.isPresent()) {
                    return inner;
                }
            }
            return Optional.empty();
        }
        if (expected.isArray()) {
            if (!actual.isArray()) {
                return Optional.of(at + " is not an array");
            }
            int next = 0;
            for (JsonNode element : expected) {
                while (next < actual.size() && mismatch(at, element, actual.get(next)).isPresent()) {
                    next++;
                }
                if (next == actual.size()) {
                    return Optional.of(at + " has no element like " + element);
                }
                next++;
            }
            return Optional.empty();
        }
        if (expected.isNull()) {
            return actual.isNull() || actual.isMissingNode() ? Optional.empty() : Optional.of(at + " is " + actual);
        }
        return expected.equals(actual) || expected.asString().equals(actual.asString())
                ? Optional.empty() : Optional.of(at + " is " + actual + ", not " + expected);
    }

    static List<Example> examples(String markdown) {
        List<Example> examples = new ArrayList<>();
        Matcher m = EXAMPLE.matcher(markdown);
        while (m.find()) {
            String[] parts = m.group(1).split("\\n\\n", 2);
            String[] head = parts[0].split("\\n");
            String[] requestLine = head[0].split(" ");
            String contentType = null;
            for (int i = 1; i < head.length; i++) {
                if (head[i].toLowerCase().startsWith("content-type:")) {
                    contentType = head[i].substring("content-type:".length()).strip();
                }
            }
            examples.add(new Example(requestLine[0], requestLine[1], contentType, parts.length > 1 ? parts[1] : "",
                    Integer.parseInt(m.group(2)), JSON.readTree(m.group(3))));
        }
        return examples;
    }
}
