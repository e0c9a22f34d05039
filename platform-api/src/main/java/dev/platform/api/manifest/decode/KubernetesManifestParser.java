package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.ConfigManifest;
import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.ManifestError;
import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.api.manifest.ManifestRejectedException;
import dev.platform.api.manifest.ManifestRejectedException.Cause;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Kubernetes manifests (YAML streams, JSON objects or arrays, {@code kind: List}) of the
 * configuration kinds, validating as Kueue's schemas and webhooks do. All-or-nothing: every
 * document is checked and every problem of every document is reported before anything is
 * returned.
 */
public final class KubernetesManifestParser implements ManifestParser {

    private final ManifestBodyReader reader;
    private final ConfigDocumentDecoder decoder = new ConfigDocumentDecoder();

    public KubernetesManifestParser(ManifestLimits limits) {
        this.reader = new ManifestBodyReader(limits);
    }

    @Override
    public List<DecodedDocument> parse(byte[] body, Format format) {
        List<Map<?, ?>> documents = reader.read(body, format);
        List<ManifestError> errors = new ArrayList<>();
        List<DecodedDocument> decoded = new ArrayList<>();
        Map<ObjectKey, Integer> firstSeenAt = new HashMap<>();
        for (int index = 0; index < documents.size(); index++) {
            Findings findings = new Findings(index);
            ConfigManifest manifest = decoder.decode(Node.root(documents.get(index), findings));
            if (manifest != null && manifest.name() != null) {
                Integer earlier = firstSeenAt.putIfAbsent(ObjectKey.of(manifest), index);
                if (earlier != null) {
                    findings.error("metadata.name", manifest.kind().manifestName() + " '" + ObjectKey.of(manifest)
                            .displayName() + "' is already defined by document " + earlier
                            + "; an object may appear once per request");
                }
            }
            findings.reportUnreadFields();
            errors.addAll(findings.errors());
            if (findings.errors().isEmpty()) {
                decoded.add(new DecodedDocument(index, manifest, findings.warnings()));
            }
        }
        if (!errors.isEmpty()) {
            throw new ManifestRejectedException(Cause.INVALID, errors);
        }
        return decoded;
    }

    @Override
    public DecodedDocument parseWorkload(byte[] body, Format format, String namespace) {
        reader.read(body, format);
        throw new ManifestRejectedException(Cause.INVALID, List.of(new ManifestError(0, "kind",
                "workload submission is not available yet: JobSet, Job and Workload decoding has not landed")));
    }

    /** The identity of an object in a request: two documents with the same key are one object twice. */
    private record ObjectKey(String kind, String namespace, String name) {
        static ObjectKey of(ConfigManifest manifest) {
            return new ObjectKey(manifest.kind().manifestName(), manifest.namespace(), manifest.name());
        }

        String displayName() {
            return namespace == null ? name : namespace + "/" + name;
        }
    }
}
