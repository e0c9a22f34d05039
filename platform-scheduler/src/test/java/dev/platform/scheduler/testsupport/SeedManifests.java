package dev.platform.scheduler.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

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
}
