package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.ManifestError;

import java.util.ArrayList;
import java.util.List;

/**
 * What decoding one document found: errors reject the whole request, warnings travel back with
 * the accepted document. Nodes register here so that unread fields can be reported once the
 * decoder has taken what it understands.
 */
final class Findings {

    private final int document;
    private final List<ManifestError> errors = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final List<Node> nodes = new ArrayList<>();

    Findings(int document) {
        this.document = document;
    }

    int document() {
        return document;
    }

    void error(String path, String message) {
        errors.add(new ManifestError(document, path, message));
    }

    /** Wording: {@code <path>: <what>; <what the platform does>}. */
    void warn(String path, String what, String platformDoes) {
        warnings.add(path + ": " + what + "; " + platformDoes);
    }

    void register(Node node) {
        nodes.add(node);
    }

    /** Reports every field no decoder read, in document order, as ignored. */
    void reportUnreadFields() {
        for (Node node : nodes) {
            for (String field : node.unreadFields()) {
                warn(node.child(field), "unknown field", "ignored");
            }
        }
        nodes.clear();
    }

    List<ManifestError> errors() {
        return errors;
    }

    List<String> warnings() {
        return warnings;
    }
}
