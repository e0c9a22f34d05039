package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.FieldValidation;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.Manifest;
import dev.platform.api.manifest.ManifestError;
import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.api.manifest.ManifestRejectedException;
import dev.platform.api.manifest.ManifestRejectedException.Cause;
import dev.platform.api.manifest.decode.KubernetesFields.TypeMeta;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads Kubernetes manifests (YAML streams, JSON objects or arrays, {@code kind: List}) of the
 * configuration kinds and of the workload kinds (JobSet, Job, Workload), validating as Kueue's
 * schemas and webhooks do. All-or-nothing: every document is checked and every problem of every
 * document is reported before anything is returned.
 */
public final class KubernetesManifestParser implements ManifestParser {

    private final ManifestBodyReader reader;
    private final ConfigDocumentDecoder configs = new ConfigDocumentDecoder();
    private final WorkloadDocumentDecoder workloads = new WorkloadDocumentDecoder();

    public KubernetesManifestParser(ManifestLimits limits) {
        this.reader = new ManifestBodyReader(limits);
    }

    @Override
    public List<DecodedDocument> parse(byte[] body, Format format) {
        return parse(body, format, FieldValidation::defaultFor);
    }

    @Override
    public List<DecodedDocument> parse(byte[] body, Format format, FieldValidation fieldValidation) {
        return parse(body, format, kind -> fieldValidation);
    }

    private List<DecodedDocument> parse(byte[] body, Format format, Function<Kind, FieldValidation> fieldValidation) {
        List<Map<?, ?>> documents = reader.read(body, format);
        List<ManifestError> errors = new ArrayList<>();
        List<DecodedDocument> decoded = new ArrayList<>();
        Map<ObjectKey, Integer> firstSeenAt = new HashMap<>();
        for (int index = 0; index < documents.size(); index++) {
            Findings findings = new Findings(index);
            FieldCursor root = FieldCursor.root(documents.get(index), findings);
            TypeMeta type = KubernetesFields.typeMeta(root);
            Manifest manifest = type == null ? null : type.kind().isConfiguration() ? configs.decode(root, type)
                    : workloads.decode(root, type, KubernetesFields.DEFAULT_NAMESPACE);
            if (manifest != null && manifest.name() != null) {
                Integer earlier = firstSeenAt.putIfAbsent(ObjectKey.of(manifest), index);
                if (earlier != null) {
                    findings.error("metadata.name", manifest.kind().manifestName() + " '" + ObjectKey.of(manifest)
                            .displayName() + "' is already defined by document " + earlier
                            + "; an object may appear once per request");
                }
            }
            Map<?, ?> source = documents.get(index);
            collect(findings, manifest, fieldValidation, errors).map(d -> withSource(d, source)).ifPresent(decoded::add);
        }
        if (!errors.isEmpty()) {
            throw new ManifestRejectedException(Cause.INVALID, errors);
        }
        return decoded;
    }

    @Override
    public DecodedDocument parseWorkload(byte[] body, Format format, String namespace,
                                         FieldValidation fieldValidation) {
        List<Map<?, ?>> documents = reader.read(body, format);
        if (documents.size() != 1) {
            throw invalid(-1, "", "a workload submission holds exactly one document (a JobSet, Job or Workload);"
                    + " found " + documents.size());
        }
        KubernetesNames.labelProblem(namespace).ifPresent(problem -> {
            throw invalid(-1, "", "the namespace in the request path is invalid: " + problem);
        });
        Findings findings = new Findings(0);
        FieldCursor root = FieldCursor.root(documents.get(0), findings);
        TypeMeta type = KubernetesFields.typeMeta(root);
        Manifest manifest = null;
        if (type != null && type.kind().isConfiguration()) {
            root.error("kind", type.kind().manifestName() + " is a configuration kind; only JobSet, Job and"
                    + " Workload are submitted here; use POST /api/v1/manifests for configuration");
        } else if (type != null) {
            manifest = workloads.decode(root, type, namespace);
            if (manifest.namespace() != null && !manifest.namespace().equals(namespace)) {
                findings.error("metadata.namespace", "'" + manifest.namespace() + "' differs from the namespace of"
                        + " the request path, '" + namespace + "'; leave it out or make them equal");
            }
        }
        List<ManifestError> errors = new ArrayList<>();
        DecodedDocument decoded = collect(findings, manifest, kind -> fieldValidation, errors)
                .map(d -> withSource(d, documents.get(0))).orElse(null);
        if (decoded == null) {
            throw new ManifestRejectedException(Cause.INVALID, errors);
        }
        return decoded;
    }

    /**
     * Adds the document's errors to {@code errors}, its unknown fields among them if its kind's field
     * validation is Strict; the decoded document when it has none. A document of no known kind has
     * no schema, so nothing in it is an unknown field.
     */
    private static Optional<DecodedDocument> collect(Findings findings, Manifest manifest,
                                                     Function<Kind, FieldValidation> fieldValidation,
                                                     List<ManifestError> errors) {
        findings.reportUnreadFields();
        findings.reportUnknownFields(manifest == null ? FieldValidation.Ignore : fieldValidation.apply(manifest.kind()));
        errors.addAll(findings.errors());
        if (!findings.errors().isEmpty() || manifest == null) {
            return Optional.empty();
        }
        return Optional.of(new DecodedDocument(findings.document(), manifest, findings.warnings()));
    }

    private static DecodedDocument withSource(DecodedDocument document, Map<?, ?> source) {
        return new DecodedDocument(document.index(), document.manifest(), document.warnings(), source);
    }

    private static ManifestRejectedException invalid(int document, String path, String message) {
        return new ManifestRejectedException(Cause.INVALID, List.of(new ManifestError(document, path, message)));
    }

    /** The identity of an object in a request: two documents with the same key are one object twice. */
    private record ObjectKey(String kind, String namespace, String name) {
        static ObjectKey of(Manifest manifest) {
            return new ObjectKey(manifest.kind().manifestName(), manifest.namespace(), manifest.name());
        }

        String displayName() {
            return namespace == null ? name : namespace + "/" + name;
        }
    }
}
