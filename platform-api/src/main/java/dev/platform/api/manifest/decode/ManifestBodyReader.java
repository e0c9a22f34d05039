package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.ManifestError;
import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestParser.Format;
import dev.platform.api.manifest.ManifestRejectedException;
import dev.platform.api.manifest.ManifestRejectedException.Cause;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.Construct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Turns a request body into its documents, each a plain map: YAML streams (empty documents
 * skipped), a JSON object, a JSON array of objects, and Kubernetes {@code kind: List} objects,
 * whose items are flattened in order. Rejects, before any decoding, what is not parseable, not
 * made of mappings, or beyond the {@link ManifestLimits}.
 */
final class ManifestBodyReader {

    private final ManifestLimits limits;
    private final JsonMapper json;
    /**
     * A loader per thread, made once: a Yaml instance is not thread-safe, and making one (its resolver, representer
     * and constructor tables) cost about a tenth of reading a small manifest. A load starts from a clean state.
     */
    private final ThreadLocal<Yaml> yaml =
            ThreadLocal.withInitial(() -> {
                LoaderOptions options = loaderOptions();
                return new Yaml(new ExactNumberConstructor(options), new Representer(new DumperOptions()),
                        new DumperOptions(), options, new PlainStringResolver());
            });

    ManifestBodyReader(ManifestLimits limits) {
        this.limits = limits;
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(limits.maxDepth()).build())
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
        this.json = JsonMapper.builder(factory)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build();
    }

    /**
     * @throws ManifestRejectedException TOO_LARGE for a body over the limits, MALFORMED for one
     *                                   that cannot be read into mappings
     */
    List<Map<?, ?>> read(byte[] body, Format format) {
        if (body.length > limits.maxBytes()) {
            throw rejected(Cause.TOO_LARGE, -1, "the body has " + body.length + " bytes; at most "
                    + limits.maxBytes() + " are accepted");
        }
        String text = utf8(body);
        Documents documents = new Documents();
        if (format == Format.JSON) {
            readJson(text, documents);
        } else {
            readYaml(text, documents);
        }
        if (!documents.errors.isEmpty()) {
            throw new ManifestRejectedException(Cause.MALFORMED, documents.errors);
        }
        if (documents.maps.isEmpty()) {
            throw rejected(Cause.MALFORMED, -1, "the body holds no documents");
        }
        return documents.maps;
    }

    private void readYaml(String text, Documents documents) {
        Iterator<Object> stream = yaml.get().loadAll(text).iterator();
        while (true) {
            Object document;
            try {
                if (!stream.hasNext()) {
                    return;
                }
                document = stream.next();
            } catch (MarkedYAMLException e) {
                throw rejected(Cause.MALFORMED, documents.next(), yamlMessage(e));
            } catch (YAMLException e) {
                throw rejected(Cause.MALFORMED, documents.next(), limitMessage(e));
            }
            if (document != null) {
                documents.add(document, "a YAML document must be a mapping (an object with apiVersion and kind)");
            }
        }
    }

    private void readJson(String text, Documents documents) {
        Object root;
        try {
            root = json.readValue(text, Object.class);
        } catch (StreamConstraintsException e) {
            throw rejected(Cause.MALFORMED, 0, "JSON nests deeper than " + limits.maxDepth() + " levels");
        } catch (JacksonException e) {
            throw rejected(Cause.MALFORMED, 0, "JSON syntax error" + at(e.getLocation()) + ": " + problem(e)
                    + (looksLikeYaml(text) ? "; the body looks like YAML: send YAML as Content-Type: application/yaml"
                    : ""));
        }
        if (root instanceof List<?> items) {
            for (Object item : items) {
                documents.add(item, "each item of a JSON array must be an object");
            }
        } else {
            documents.add(root, "the JSON body must be an object or an array of objects");
        }
    }

    /** A body sent as JSON that starts as no JSON object or array does, with a key and a colon, as YAML does. */
    private static boolean looksLikeYaml(String text) {
        String start = text.stripLeading();
        return !start.startsWith("{") && !start.startsWith("[") && !start.startsWith("\"")
                && (start.startsWith("---") || start.matches("(?s)^[A-Za-z_][\\w.-]*\\s*:.*"));
    }

    private LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(limits.maxAliases());
        options.setNestingDepthLimit(limits.maxDepth());
        options.setAllowDuplicateKeys(false);
        options.setAllowRecursiveKeys(false);
        // The byte limit has been checked already; a code point is at least one byte.
        options.setCodePointLimit(Math.max(limits.maxBytes(), 1));
        return options;
    }

    private static String yamlMessage(MarkedYAMLException e) {
        Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
        String where = mark == null ? "" : " at line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
        String problem = e.getProblem() != null ? e.getProblem() : e.getContext();
        return "YAML error" + where + ": " + problem;
    }

    /** SnakeYAML reports its loader limits as plain YAMLExceptions; say which limit in our words. */
    private String limitMessage(YAMLException e) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("aliases")) {
            return "the YAML uses more than " + limits.maxAliases()
                    + " aliases to collections; refused as a possible alias bomb (billion laughs)";
        }
        if (message.contains("Nesting Depth")) {
            return "the YAML nests deeper than " + limits.maxDepth() + " levels";
        }
        return "YAML error: " + message;
    }

    /** Jackson's message without its "(start marker at [Source: ...])" tail, which names no source here. */
    private static String problem(JacksonException e) {
        String message = String.valueOf(e.getOriginalMessage());
        int sourceNote = message.indexOf(" (start marker at");
        return sourceNote < 0 ? message : message.substring(0, sourceNote);
    }

    private static String at(TokenStreamLocation location) {
        return location == null || location.getLineNr() < 0 ? ""
                : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    private static String utf8(byte[] body) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            throw rejected(Cause.MALFORMED, -1, "the body is not valid UTF-8");
        }
    }

    private static ManifestRejectedException rejected(Cause cause, int document, String message) {
        return new ManifestRejectedException(cause, List.of(new ManifestError(document, "", message)));
    }

    /** The documents read so far, Kubernetes Lists flattened; the index of each is its position here. */
    private final class Documents {
        final List<Map<?, ?>> maps = new ArrayList<>();
        final List<ManifestError> errors = new ArrayList<>();
        private int count;

        int next() {
            return count;
        }

        void add(Object document, String notAMapping) {
            if (document instanceof Map<?, ?> map && "List".equals(map.get("kind"))) {
                Object items = map.get("items");
                if (!(items instanceof List<?> list)) {
                    errors.add(new ManifestError(count, "items", "a List must have an items list"));
                    count++;
                    return;
                }
                list.forEach(item -> add(item, "each item of a List must be an object"));
                return;
            }
            if (count == limits.maxDocuments()) {
                throw rejected(Cause.TOO_LARGE, -1, "the body has more than " + limits.maxDocuments()
                        + " documents");
            }
            if (document instanceof Map<?, ?> map) {
                nulCharacter(map, "").ifPresent(path -> errors.add(new ManifestError(count, path,
                        "holds the NUL character (\\u0000), which no text stored by the platform (or PostgreSQL)"
                                + " can hold")));
                maps.add(map);
            } else {
                errors.add(new ManifestError(count, "", notAMapping + "; found " + FieldCursor.describe(document)));
            }
            count++;
        }
    }

    /** The path of the first key or string value holding U+0000, if any. */
    private static Optional<String> nulCharacter(Object node, String path) {
        if (node instanceof String text) {
            return text.indexOf('\u0000') >= 0 ? Optional.of(path) : Optional.empty();
        }
        if (node instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                String key = String.valueOf(entry.getKey());
                String child = path.isEmpty() ? key : path + "." + key;
                if (key.indexOf('\u0000') >= 0) {
                    return Optional.of(child);
                }
                Optional<String> found = nulCharacter(entry.getValue(), child);
                if (found.isPresent()) {
                    return found;
                }
            }
        } else if (node instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                Optional<String> found = nulCharacter(list.get(i), path + "[" + i + "]");
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    /**
     * SafeConstructor (no custom tags, no Java objects) that keeps decimal numbers exact, so that a
     * quantity written {@code 0.5} reads as the text the user meant, not as a double; and reads
     * timestamps ({@code creationTimestamp: 2024-05-01T10:00:00Z}) as the text written, as the
     * Kubernetes API server does, so a stored manifest stays plain JSON.
     */
    private static final class ExactNumberConstructor extends SafeConstructor {
        ExactNumberConstructor(LoaderOptions options) {
            super(options);
            Construct floats = yamlConstructors.get(Tag.FLOAT);
            yamlConstructors.put(Tag.FLOAT, new AbstractConstruct() {
                @Override
                public Object construct(org.yaml.snakeyaml.nodes.Node node) {
                    String text = ((ScalarNode) node).getValue().replace("_", "");
                    try {
                        return new BigDecimal(text);
                    } catch (NumberFormatException e) {
                        return floats.construct(node);
                    }
                }
            });
            yamlConstructors.put(Tag.TIMESTAMP, new AbstractConstruct() {
                @Override
                public Object construct(org.yaml.snakeyaml.nodes.Node node) {
                    return ((ScalarNode) node).getValue();
                }
            });
        }
    }

    /**
     * SnakeYAML's resolver, answering most plain scalars without a regular expression. It files its implicit types
     * (booleans, numbers, null, timestamps, merge keys) under the first characters they can start with, and tries the
     * patterns filed under "any first character" (first characters given as null or including NUL) on every scalar
     * the others did not claim: in the standard set, the empty string's and null's ({@code ~}, {@code null},
     * {@code Null}, {@code NULL} or a single space). So a non-empty scalar whose first character starts no type and
     * is not a space is a string, as the standard resolver finds after a matcher for each of those two patterns:
     * most of a manifest's keys and names (those matchers were about 6% of the bytes a REST submission allocated). Should any other
     * pattern be filed under any first character, every scalar goes the standard way.
     */
    static final class PlainStringResolver extends Resolver {

        /**
         * Set while the superclass constructor adds the standard resolvers, so it has no initializer: one would run
         * after that and reset it.
         */
        private boolean beyondStandardForAnyFirst;

        @Override
        public void addImplicitResolver(Tag tag, Pattern regexp, String first, int limit) {
            boolean anyFirst = first == null || first.indexOf('\0') >= 0;
            if (anyFirst && regexp != EMPTY && regexp != NULL) {
                beyondStandardForAnyFirst = true;
            }
            super.addImplicitResolver(tag, regexp, first, limit);
        }

        @Override
        public Tag resolve(NodeId kind, String value, boolean implicit) {
            if (kind == NodeId.scalar && implicit && !beyondStandardForAnyFirst && !value.isEmpty()
                    && value.charAt(0) != ' ' && !yamlImplicitResolvers.containsKey(value.charAt(0))) {
                return Tag.STR;
            }
            return super.resolve(kind, value, implicit);
        }
    }
}
