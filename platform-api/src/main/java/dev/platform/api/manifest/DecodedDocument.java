package dev.platform.api.manifest;

import java.util.List;
import java.util.Map;

/**
 * One document of a request, decoded and valid.
 *
 * @param index    0-based position in the request
 * @param manifest the decoded object
 * @param warnings fields accepted but not acted on, each naming the field and what the platform does with it
 * @param source   the document as written, every field kept; null when the manifest was made by the platform
 */
public record DecodedDocument(int index, Manifest manifest, List<String> warnings, Map<?, ?> source) {

    public DecodedDocument {
        warnings = List.copyOf(warnings);
    }

    /** A document the platform made itself, with no source text. */
    public DecodedDocument(int index, Manifest manifest, List<String> warnings) {
        this(index, manifest, warnings, null);
    }
}
