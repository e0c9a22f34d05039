package dev.platform.api.manifest;

import java.util.List;

/**
 * One document of a request, decoded and valid.
 *
 * @param index    0-based position in the request
 * @param manifest the decoded object
 * @param warnings fields accepted but not acted on, each naming the field and what the platform does with it
 */
public record DecodedDocument(int index, Manifest manifest, List<String> warnings) {

    public DecodedDocument {
        warnings = List.copyOf(warnings);
    }
}
