package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.LabelSelector.Requirement;
import dev.platform.api.manifest.Quantity;
import dev.platform.api.manifest.ResourceFlavorManifest.Toleration;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads from a pod template what scheduling needs: the pod's effective requests, its node
 * constraints and its priority class. Everything else in the template goes to the cluster
 * unchanged and is not read.
 */
final class PodTemplateDecoder {

    static final String QUEUE_NAME_LABEL = "kueue.x-k8s.io/queue-name";
    static final String PRIORITY_CLASS_LABEL = "kueue.x-k8s.io/priority-class";
    private static final List<String> NODE_SELECTOR_OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt");

    /** What one pod template contributes to a PodSet. */
    record PodTemplate(Map<String, Quantity> requests, Map<String, String> nodeSelector,
                       List<List<Requirement>> requiredNodeAffinity, List<Toleration> tolerations,
                       String priorityClassName) {

        static final PodTemplate NONE = new PodTemplate(Map.of(), Map.of(), List.of(), List.of(), null);
    }

    private PodTemplateDecoder() {
    }

    /**
     * A {@code template} field holding a pod template ({@code metadata}, {@code spec}); absent or
     * broken, an error and {@link PodTemplate#NONE}, so that decoding goes on.
     *
     * @param owner where Kueue reads queue and priority from, for messages ("the JobSet's own metadata")
     */
    static PodTemplate read(FieldCursor parent, String field, String owner) {
        FieldCursor template = parent.requiredObject(field);
        if (template == null) {
            return PodTemplate.NONE;
        }
        FieldCursor metadata = template.object("metadata");
        FieldCursor spec = template.requiredObject("spec");
        String priorityClassName = spec == null ? null : spec.name("priorityClassName", KubernetesNames::subdomainProblem);
        if (metadata != null) {
            warnAboutKueueLabels(metadata, owner, priorityClassName);
        }
        if (spec == null) {
            return PodTemplate.NONE;
        }
        return new PodTemplate(
                requests(spec),
                KubernetesFields.labels(spec, "nodeSelector"),
                requiredNodeAffinity(spec),
                spec.objects("tolerations").stream().map(KubernetesFields::toleration).toList(),
                priorityClassName);
    }

    /**
     * Kueue reads its queue and priority labels from the job object; on a pod template they only reach the pods. A
     * priority-class label naming the class the pod's {@code priorityClassName} names is harmless (the seed's
     * JobSets carry both): the workload gets that class's priority either way, so nothing is said.
     */
    private static void warnAboutKueueLabels(FieldCursor metadata, String owner, String priorityClassName) {
        Map<String, String> labels = metadata.stringMap("labels");
        for (String label : List.of(QUEUE_NAME_LABEL, PRIORITY_CLASS_LABEL)) {
            if (labels.containsKey(label)
                    && !(label.equals(PRIORITY_CLASS_LABEL) && labels.get(label).equals(priorityClassName))) {
                metadata.findings().warn(metadata.child("labels") + "." + label,
                        "on a pod template this label is not read (Kueue reads it from " + owner + ")", "passed to the pods unchanged; it does not affect scheduling");
            }
        }
    }

    /**
     * The pod's effective requests, as Kubernetes' {@code resourcehelper.PodRequests} and Kueue
     * compute them: the sum over containers; at least each init container (plus the sidecars
     * started before it); sidecars ({@code restartPolicy: Always}) add to the sum; plus the overhead.
     */
    private static Map<String, Quantity> requests(FieldCursor spec) {
        List<FieldCursor> containers = spec.objects("containers");
        if (containers.isEmpty()) {
            spec.error("containers", spec.has("containers") ? "must have at least one container" : "required");
        }
        Map<String, Quantity> total = new LinkedHashMap<>();
        containers.forEach(container -> add(total, containerRequests(container)));
        Map<String, Quantity> sidecars = new LinkedHashMap<>();
        Map<String, Quantity> largestInit = new LinkedHashMap<>();
        for (FieldCursor init : spec.objects("initContainers")) {
            Map<String, Quantity> requests = containerRequests(init);
            boolean sidecar = "Always".equals(init.string("restartPolicy"));
            if (sidecar) {
                add(total, requests);
                add(sidecars, requests);
            }
            Map<String, Quantity> whileRunning = new LinkedHashMap<>(sidecar ? Map.of() : requests);
            add(whileRunning, sidecars);
            max(largestInit, whileRunning);
        }
        max(total, largestInit);
        add(total, spec.quantityMap("overhead"));
        return total;
    }

    /** requests, with a limit standing in for a resource that has no request (Kubernetes defaulting). */
    private static Map<String, Quantity> containerRequests(FieldCursor container) {
        FieldCursor resources = container.object("resources");
        if (resources == null) {
            return Map.of();
        }
        Map<String, Quantity> requests = resources.quantityMap("requests");
        Map<String, Quantity> limits = resources.quantityMap("limits");
        limits.forEach((name, limit) -> {
            Quantity request = requests.putIfAbsent(name, limit);
            if (request != null && request.compareTo(limit) > 0) {
                container.findings().error(resources.child("requests") + "." + name, "request " + request
                        + " is above the limit " + limit + "; must be less than or equal to the limit");
            }
        });
        return requests;
    }

    private static void add(Map<String, Quantity> into, Map<String, Quantity> more) {
        more.forEach((name, quantity) -> into.merge(name, quantity, Quantity::plus));
    }

    private static void max(Map<String, Quantity> into, Map<String, Quantity> other) {
        other.forEach((name, quantity) -> into.merge(name, quantity, (a, b) -> a.compareTo(b) >= 0 ? a : b));
    }

    /** affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution: terms ORed, expressions ANDed. */
    private static List<List<Requirement>> requiredNodeAffinity(FieldCursor spec) {
        FieldCursor affinity = spec.object("affinity");
        FieldCursor nodeAffinity = affinity == null ? null : affinity.object("nodeAffinity");
        FieldCursor required = nodeAffinity == null ? null
                : nodeAffinity.object("requiredDuringSchedulingIgnoredDuringExecution");
        if (required == null) {
            return List.of();
        }
        List<FieldCursor> terms = required.objects("nodeSelectorTerms");
        if (terms.isEmpty()) {
            required.error("nodeSelectorTerms", "must have at least one term");
        }
        List<List<Requirement>> decoded = new ArrayList<>();
        for (FieldCursor term : terms) {
            decoded.add(term.objects("matchExpressions").stream().map(PodTemplateDecoder::requirement).toList());
            if (term.has("matchFields")) {
                term.findings().warn(term.child("matchFields"), "node fields are not known to the platform",
                        "passed to the cluster; placement does not consider them");
            }
        }
        return decoded;
    }

    /** Kubernetes' ValidateNodeSelectorRequirement. */
    private static Requirement requirement(FieldCursor expression) {
        String key = expression.requiredName("key", KubernetesNames::qualifiedNameProblem);
        String operator = expression.requiredOneOf("operator", NODE_SELECTOR_OPERATORS);
        List<String> values = expression.strings("values");
        if (operator != null) {
            switch (operator) {
                case "In", "NotIn" -> {
                    if (values.isEmpty()) {
                        expression.error("values", "must be non-empty when operator is " + operator);
                    }
                }
                case "Exists", "DoesNotExist" -> {
                    if (!values.isEmpty()) {
                        expression.error("values", "must be empty when operator is " + operator);
                    }
                }
                default -> {
                    if (values.size() != 1 || !isInteger(values.get(0))) {
                        expression.error("values", "must be a single integer when operator is " + operator);
                    }
                }
            }
        }
        return new Requirement(key, operator, values);
    }

    private static boolean isInteger(String text) {
        try {
            new BigInteger(text);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
