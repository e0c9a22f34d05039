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
    private final List<FieldCursor> nodes = new ArrayList<>();
    private final List<String> passedThrough = new ArrayList<>();

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

    void register(FieldCursor node) {
        nodes.add(node);
    }

    /** Fields under this path that no decoder reads are passed to the cluster, not unknown. */
    void passThrough(String path) {
        passedThrough.add(path);
    }

    /** Reports every field no decoder read, in document order, as ignored; passed-through subtrees excepted. */
    void reportUnreadFields() {
        for (FieldCursor node : nodes) {
            if (isPassedThrough(node.path())) {
                continue;
            }
            for (String field : node.unreadFields()) {
                warn(node.child(field), "unknown field", "ignored");
            }
        }
        nodes.clear();
    }

    private boolean isPassedThrough(String path) {
        return passedThrough.stream().anyMatch(prefix -> prefix.isEmpty() || path.equals(prefix)
                || path.startsWith(prefix + ".") || path.startsWith(prefix + "["));
    }

    List<ManifestError> errors() {
        return errors;
    }

    List<String> warnings() {
        return warnings;
    }
}
