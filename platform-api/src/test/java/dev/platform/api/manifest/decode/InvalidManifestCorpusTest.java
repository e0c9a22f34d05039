package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestParser.Format;
import dev.platform.api.manifest.ManifestRejectedException;
import dev.platform.api.manifest.ManifestRejectedException.Cause;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Runs the corpus of bad manifests that the scheduler's REST test posts, straight through the
 * parser: each is rejected with the cause its HTTP status stands for, and an error at the
 * expected document and path. Maven runs tests from the module directory, hence the relative path.
 */
class InvalidManifestCorpusTest {

    static final Path CORPUS = Path.of("../platform-scheduler/src/test/resources/manifests/invalid");

    private final KubernetesManifestParser parser = new KubernetesManifestParser(ManifestLimits.DEFAULT);

    /** One line of expectations.yaml. */
    record Expectation(String file, String contentType, int status, int document, String path,
                       String messageContains, String generate, Integer size) {

        static Expectation of(Map<String, Object> entry) {
            return new Expectation((String) entry.get("file"), (String) entry.get("contentType"),
                    (Integer) entry.get("status"), (Integer) entry.get("document"), (String) entry.get("path"),
                    (String) entry.get("messageContains"), (String) entry.get("generate"), (Integer) entry.get("size"));
        }

        Format format() {
            return contentType.equals("application/json") ? Format.JSON : Format.YAML;
        }
    }

    @TestFactory
    Stream<DynamicTest> everyBadManifestIsRejectedAtTheExpectedPlace() {
        return expectations().stream().map(e -> DynamicTest.dynamicTest(e.file(), () -> {
            var rejected = catchThrowableOfType(ManifestRejectedException.class, () -> parser.parse(body(e), e.format()));

            assertThat(rejected).as("%s is rejected", e.file()).isNotNull();
            assertThat(status(rejected.rejection())).as("status of %s: %s", e.file(), rejected.errors()).isEqualTo(e.status());
            assertThat(rejected.errors()).as(e.file()).anySatisfy(error -> {
                assertThat(error.document()).isEqualTo(e.document());
                assertThat(error.path()).isEqualTo(e.path());
                assertThat(error.message()).contains(e.messageContains());
            });
        }));
    }

    @Test
    void theIndexListsEveryFileOfTheCorpusAndAtLeast35() throws IOException {
        List<String> listed = expectations().stream().map(Expectation::file).toList();
        try (Stream<Path> files = Files.list(CORPUS)) {
            List<String> present = files.map(p -> p.getFileName().toString())
                    .filter(name -> !name.equals("expectations.yaml")).sorted().toList();
            assertThat(listed).hasSizeGreaterThanOrEqualTo(35).doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(present);
        }
        assertThat(listed).allMatch(name -> name.matches("\\d\\d-[a-z0-9.-]+\\.(yaml|json)"));
    }

    static int status(Cause cause) {
        return switch (cause) {
            case MALFORMED -> 400;
            case TOO_LARGE -> 413;
            case INVALID -> 422;
        };
    }

    static List<Expectation> expectations() {
        try {
            String index = Files.readString(CORPUS.resolve("expectations.yaml"));
            List<Map<String, Object>> entries = new Yaml(new SafeConstructor(new LoaderOptions())).load(index);
            return entries.stream().map(Expectation::of).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file's bytes; for {@code generate: oversized}, padded with YAML comment lines to exactly {@code size}. */
    static byte[] body(Expectation e) throws IOException {
        byte[] file = Files.readAllBytes(CORPUS.resolve(e.file()));
        if (!"oversized".equals(e.generate())) {
            return file;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream(e.size());
        body.writeBytes(file);
        byte[] line = ("#" + "x".repeat(78) + "\n").getBytes(StandardCharsets.US_ASCII);
        while (body.size() + line.length <= e.size()) {
            body.writeBytes(line);
        }
        int rest = e.size() - body.size();
        if (rest > 0) {
            body.writeBytes(("#" + "x".repeat(rest - 1)).getBytes(StandardCharsets.US_ASCII));
        }
        return body.toByteArray();
    }
}
