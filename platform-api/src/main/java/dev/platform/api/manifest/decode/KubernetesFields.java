package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.ObjectMeta;
import dev.platform.api.manifest.ResourceFlavorManifest.Toleration;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The shapes of core Kubernetes that configuration and workload kinds share: apiVersion and kind,
 * {@code metadata}, label maps and tolerations, checked as the API server checks them.
 */
final class KubernetesFields {

    static final String DEFAULT_NAMESPACE = "default";
    static final List<String> TAINT_EFFECTS = List.of("NoSchedule", "PreferNoSchedule", "NoExecute");
    private static final List<String> TOLERATION_OPERATORS = List.of("Equal", "Exists");

    /** A document's apiVersion and kind, both known to the platform. */
    record TypeMeta(Kind kind, String apiVersion) {
    }

    private KubernetesFields() {
    }

    /** The document's kind and apiVersion, or null when either is missing or not served (the errors say why). */
    static TypeMeta typeMeta(FieldCursor root) {
        String apiVersion = root.requiredString("apiVersion");
        String kindName = root.requiredString("kind");
        if (kindName == null) {
            return null;
        }
        Kind kind = Kind.fromManifestName(kindName).orElse(null);
        if (kind == null) {
            root.error("kind", "unknown kind '" + kindName + "'; supported kinds: " + supportedKinds());
            return null;
        }
        if (apiVersion == null) {
            return null;
        }
        if (!kind.apiVersions().contains(apiVersion)) {
            root.error("apiVersion", kindName + " is not served as '" + apiVersion + "'; supported apiVersions for "
                    + kindName + ": " + String.join(", ", kind.apiVersions()));
            return null;
        }
        return new TypeMeta(kind, apiVersion);
    }

    private static String supportedKinds() {
        return Arrays.stream(Kind.values())
                .map(k -> k.manifestName() + " (" + String.join(", ", k.apiVersions()) + ")")
                .collect(Collectors.joining(", "));
    }

    /**
     * name, namespace, labels and annotations; the rest of ObjectMeta (uid, resourceVersion, ...) is
     * normal and unread, anything else an unknown field. A namespaced object without a namespace is in
     * {@code defaultNamespace}, as kubectl puts it in its context's namespace.
     */
    static ObjectMeta objectMeta(FieldCursor root, Kind kind, String defaultNamespace) {
        FieldCursor metadata = root.objectOrEmpty("metadata");
        // A namespace's name is a DNS label (it becomes part of DNS names); other kinds' are subdomains.
        String name = metadata.requiredName("name", kind == Kind.NAMESPACE ? KubernetesNames::labelProblem
                : KubernetesNames::subdomainProblem);
        String namespace = null;
        if (kind.namespaced()) {
            namespace = metadata.name("namespace", KubernetesNames::labelProblem);
            namespace = namespace == null ? defaultNamespace : namespace;
        } else if (metadata.has("namespace")) {
            metadata.ignoreWithWarning("namespace", kind.manifestName() + " is cluster-scoped", "namespace ignored");
        }
        Map<String, String> labels = labels(metadata, "labels");
        Map<String, String> annotations = metadata.stringMap("annotations");
        annotations.keySet().forEach(key -> KubernetesNames.qualifiedNameProblem(key)
                .ifPresent(problem -> root.findings().error(metadata.child("annotations") + "." + key, problem)));
        metadata.skip(KnownFields.WORKLOADS.fieldsOf("ObjectMeta").toArray(String[]::new));
        return new ObjectMeta(name, namespace, labels, annotations);
    }

    /** A label map: keys are qualified names, values label values (nodeLabels, matchLabels, nodeSelector). */
    static Map<String, String> labels(FieldCursor node, String field) {
        Map<String, String> labels = node.stringMap(field);
        labels.forEach((key, value) -> {
            String path = node.child(field) + "." + key;
            KubernetesNames.qualifiedNameProblem(key).ifPresent(problem -> node.findings().error(path, problem));
            KubernetesNames.labelValueProblem(value).ifPresent(problem -> node.findings().error(path, problem));
        });
        return labels;
    }

    /** A toleration, by the rules pod validation and Kueue's ResourceFlavor CRD share. */
    static Toleration toleration(FieldCursor toleration) {
        String key = toleration.name("key", KubernetesNames::qualifiedNameProblem);
        String operator = toleration.oneOf("operator", TOLERATION_OPERATORS);
        String value = toleration.string("value");
        String effect = toleration.oneOf("effect", TAINT_EFFECTS);
        Long seconds = toleration.int64("tolerationSeconds");
        boolean exists = "Exists".equals(operator);
        if ((key == null || key.isEmpty()) && toleration.has("operator") && !exists) {
            toleration.error("operator", "must be Exists when key is empty (which matches all keys and values)");
        }
        if ((key == null || key.isEmpty()) && !toleration.has("operator")) {
            toleration.error("key", "required unless operator is Exists");
        }
        if (exists && value != null && !value.isEmpty()) {
            toleration.error("value", "must be empty when operator is Exists");
        }
        if (seconds != null && !"NoExecute".equals(effect)) {
            toleration.error("tolerationSeconds", "may only be set when effect is NoExecute");
        }
        return new Toleration(key, operator == null ? "Equal" : operator, value, effect, seconds);
    }
}
