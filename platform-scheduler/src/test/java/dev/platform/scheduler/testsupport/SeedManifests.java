package dev.platform.scheduler.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** The seed's manifests, verbatim, from the classpath (module platform-api). */
public final class SeedManifests {

    private SeedManifests() {
    }

    public static String read(String file) {
        try (InputStream in = SeedManifests.class.getResourceAsStream("/seed-manifests/" + file)) {
            if (in == null) {
                throw new IllegalArgumentException("no seed manifest " + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The YAML documents of a seed file, in order. */
    public static List<String> documents(String file) {
        return Arrays.asList(read(file).split("(?m)^---$"));
    }

    /** The one document of a seed file that names {@code name}. */
    public static String document(String file, String name) {
        List<String> named = documents(file).stream().filter(d -> d.contains("name: " + name + "\n")).toList();
        if (named.size() != 1) {
            throw new IllegalArgumentException(file + " has " + named.size() + " documents named " + name);
        }
        return named.get(0);
    }

    /** A seed file without the document that names {@code name}. */
    public static String without(String file, String name) {
        return String.join("---", documents(file).stream().filter(d -> !d.contains("name: " + name + "\n")).toList());
    }
}
