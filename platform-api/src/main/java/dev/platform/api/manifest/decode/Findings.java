package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.FieldValidation;
import dev.platform.api.manifest.ManifestError;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What decoding one document found: errors reject the whole request, warnings travel back with
 * the accepted document. Nodes register here so that unread fields can be reported once the
 * decoder has taken what it understands. Unknown fields are kept apart until the document's
 * {@link FieldValidation} makes them errors, warnings or nothing.
 */
final class Findings {

    private final int document;
    private final List<ManifestError> errors = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final List<FieldCursor> nodes = new ArrayList<>();
    private final List<String> passedThrough = new ArrayList<>();
    private final List<UnknownField> unknownFields = new ArrayList<>();

    /** Kubernetes' wording, {@code unknown field "<path>"}, and the nearest known name if one is near. */
    private record UnknownField(String path, String message) {
    }

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

    /**
     * A field its type does not declare, at {@code path}; {@code known} are the names its type does
     * declare, for the suggestion.
     */
    void unknownField(String path, String field, Collection<String> known) {
        String message = "unknown field \"" + path + "\"";
        message += NearestName.among(field, known).map(name -> "; did you mean \"" + name + "\"?").orElse("");
        unknownFields.add(new UnknownField(path, message));
    }

    /** Every field no decoder read, in document order, is an unknown field; passed-through subtrees excepted. */
    void reportUnreadFields() {
        for (FieldCursor node : nodes) {
            if (isPassedThrough(node.path())) {
                continue;
            }
            for (String field : node.unreadFields()) {
                unknownField(node.child(field), field, node.readFields());
            }
        }
        nodes.clear();
    }

    /**
     * The unknown fields found become what {@code validation} makes of them: errors, warnings or nothing. Under
     * {@code Warn} a document refused for other errors reports its unknown fields among them, since its warnings are
     * never seen: a misspelt {@code nominalQuta} is the cause of the missing {@code nominalQuota}.
     */
    void reportUnknownFields(FieldValidation validation) {
        boolean refused = !errors.isEmpty();
        for (UnknownField unknown : unknownFields) {
            switch (validation) {
                case Strict -> errors.add(new ManifestError(document, unknown.path(), unknown.message()));
                case Warn -> {
                    if (refused) {
                        errors.add(new ManifestError(document, unknown.path(), unknown.message()));
                    } else {
                        warnings.add(unknown.message());
                    }
                }
                case Ignore -> {
                }
            }
        }
        unknownFields.clear();
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
