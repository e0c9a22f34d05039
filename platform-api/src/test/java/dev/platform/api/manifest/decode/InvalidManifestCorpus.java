package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.ManifestParser.Format;
import dev.platform.api.manifest.ManifestRejectedException.Cause;
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

/**
 * The corpus of bad manifests and its index, shared by the parser test here and the REST test
 * of the scheduler (through this module's test jar). Both modules run from their own directory,
 * siblings in the build, hence the one relative path.
 */
public final class InvalidManifestCorpus {

    public static final Path CORPUS = Path.of("../platform-scheduler/src/test/resources/manifests/invalid");

    private InvalidManifestCorpus() {
    }

    /** One line of expectations.yaml. */
    public record Expectation(String file, String contentType, int status, int document, String path,
                       String messageContains, String generate, Integer size) {

        static Expectation of(Map<String, Object> entry) {
            return new Expectation((String) entry.get("file"), (String) entry.get("contentType"),
                    (Integer) entry.get("status"), (Integer) entry.get("document"), (String) entry.get("path"),
                    (String) entry.get("messageContains"), (String) entry.get("generate"), (Integer) entry.get("size"));
        }

        public Format format() {
            return contentType.equals("application/json") ? Format.JSON : Format.YAML;
        }
    }

    public static int status(Cause cause) {
        return switch (cause) {
            case MALFORMED -> 400;
            case TOO_LARGE -> 413;
            case INVALID -> 422;
        };
    }

    public static List<Expectation> expectations() {
        try {
            String index = Files.readString(CORPUS.resolve("expectations.yaml"));
            List<Map<String, Object>> entries = new Yaml(new SafeConstructor(new LoaderOptions())).load(index);
            return entries.stream().map(Expectation::of).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file's bytes; for {@code generate: oversized}, padded with YAML comment lines to exactly {@code size}. */
    public static byte[] body(Expectation e) throws IOException {
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
