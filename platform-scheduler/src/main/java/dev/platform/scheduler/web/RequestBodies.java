package dev.platform.scheduler.web;

import dev.platform.scheduler.refusal.Refusal;
import dev.platform.api.manifest.ManifestError;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.api.manifest.ManifestRejectedException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * Reads manifest bodies with a size limit that holds before the body is in memory, and tells
 * YAML from JSON by content type.
 */
@Component
public class RequestBodies {

    private final int maxBytes;

    public RequestBodies(@Value("${platform.api.max-body-bytes:1048576}") int maxBytes) {
        this.maxBytes = maxBytes;
    }

    public int maxBytes() {
        return maxBytes;
    }

    /** Reads at most {@code maxBytes}; one byte more makes it a 413. */
    public byte[] read(InputStream in) throws IOException {
        byte[] body = in.readNBytes(maxBytes + 1);
        if (body.length > maxBytes) {
            throw new ManifestRejectedException(ManifestRejectedException.Cause.TOO_LARGE, List.of(
                    new ManifestError(-1, "", "the body has more than " + maxBytes + " bytes; at most " + maxBytes
                            + " are accepted")));
        }
        return body;
    }

    /** YAML for yaml types, text/plain or no type (YAML reads JSON too); JSON for json types. */
    public ManifestParser.Format formatOf(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return ManifestParser.Format.YAML;
        }
        MediaType type;
        try {
            type = MediaType.parseMediaType(contentType);
        } catch (IllegalArgumentException e) {
            throw unsupported(contentType);
        }
        String subtype = type.getSubtype().toLowerCase();
        if (subtype.equals("json") || subtype.endsWith("+json")) {
            return ManifestParser.Format.JSON;
        }
        if (subtype.contains("yaml") || type.isCompatibleWith(MediaType.TEXT_PLAIN)) {
            return ManifestParser.Format.YAML;
        }
        throw unsupported(contentType);
    }

    private static Refusal unsupported(String contentType) {
        return new Refusal(Refusal.Kind.UnsupportedMediaType, "Unsupported Media Type",
                "content type '" + contentType + "' is not supported; use application/yaml or application/json",
                List.of());
    }
}
