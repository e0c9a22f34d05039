package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestRejectedException;
import dev.platform.api.manifest.decode.InvalidManifestCorpus.Expectation;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static dev.platform.api.manifest.decode.InvalidManifestCorpus.CORPUS;
import static dev.platform.api.manifest.decode.InvalidManifestCorpus.body;
import static dev.platform.api.manifest.decode.InvalidManifestCorpus.expectations;
import static dev.platform.api.manifest.decode.InvalidManifestCorpus.status;

/**
 * Runs the corpus of bad manifests that the scheduler's REST test posts, straight through the
 * parser: each is rejected with the cause its HTTP status stands for, and an error at the
 * expected document and path.
 */
class InvalidManifestCorpusTest {

    private final KubernetesManifestParser parser = new KubernetesManifestParser(ManifestLimits.DEFAULT);

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
}
