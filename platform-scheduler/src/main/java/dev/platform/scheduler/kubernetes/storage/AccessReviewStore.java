package dev.platform.scheduler.kubernetes.storage;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.kubernetes.registry.KindRegistry;
import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.kubernetes.registry.Objects;
import dev.platform.scheduler.kubernetes.registry.ResourceKind;
import dev.platform.scheduler.kubernetes.registry.Verb;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code authorization.k8s.io/v1} SelfSubjectAccessReview and SelfSubjectRulesReview, which {@code kubectl auth
 * can-i} creates: answered by the same rules that authorize every request, so the answer is what the caller would
 * meet. Nothing is stored.
 */
public final class AccessReviewStore implements ObjectStore {

    private final boolean rules;
    private final Supplier<KindRegistry> registry;

    public AccessReviewStore(boolean rules, Supplier<KindRegistry> registry) {
        this.rules = rules;
        this.registry = registry;
    }

    @Override
    public Optional<Map<String, Object>> get(String namespace, String name, Caller caller) {
        return Optional.empty();
    }

    @Override
    public Page list(ListQuery query, Caller caller) {
        return new Page(List.of(), false);
    }

    @Override
    public Written create(Map<String, Object> object, WriteOptions options, Caller caller) {
        Map<String, Object> answer = Objects.copy(object);
        Map<String, Object> spec = Objects.map(object, "spec");
        answer.put("status", rules ? rules(caller, (String) spec.get("namespace")) : review(caller, spec));
        return new Written(answer, List.of());
    }

    private Map<String, Object> review(Caller caller, Map<String, Object> spec) {
        Map<String, Object> attributes = Objects.map(spec, "resourceAttributes");
        Map<String, Object> status = new LinkedHashMap<>();
        if (attributes.isEmpty()) {
            status.put("allowed", false);
            status.put("reason", "only resource attributes are answered; non-resource URLs are open to every caller"
                    + " who may reach the API");
            return status;
        }
        String group = (String) attributes.getOrDefault("group", "");
        String resource = (String) attributes.get("resource");
        String verbName = (String) attributes.get("verb");
        String namespace = (String) attributes.get("namespace");
        Optional<ResourceKind> kind = registry.get().all().stream()
                .filter(k -> k.group().equals(group == null ? "" : group) && k.plural().equals(resource)).findFirst();
        Optional<Verb> verb = java.util.Arrays.stream(Verb.values()).filter(v -> v.name().equals(verbName)).findFirst();
        if (kind.isEmpty() || verb.isEmpty() || !kind.get().serves(verb.get())) {
            status.put("allowed", false);
            status.put("reason", "the platform serves no " + verbName + " of " + resource
                    + (group == null || group.isEmpty() ? "" : "." + group));
            return status;
        }
        Optional<String> refusal = kind.get().access().refusal(caller, verb.get(),
                kind.get().namespaced() ? (namespace == null || namespace.isEmpty() ? null : namespace) : null);
        status.put("allowed", refusal.isEmpty());
        refusal.ifPresent(reason -> status.put("reason", reason));
        return status;
    }

    /** Per served resource, the verbs the caller may use in {@code namespace}. */
    private Map<String, Object> rules(Caller caller, String namespace) {
        List<Map<String, Object>> resourceRules = new ArrayList<>();
        for (ResourceKind kind : registry.get().all()) {
            List<String> verbs = kind.verbs().stream().sorted()
                    .filter(v -> kind.access().refusal(caller, v, kind.namespaced() ? namespace : null).isEmpty())
                    .map(Verb::name).toList();
            if (!verbs.isEmpty()) {
                resourceRules.add(Map.of("verbs", verbs, "apiGroups", List.of(kind.group()),
                        "resources", List.of(kind.plural())));
            }
        }
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("resourceRules", resourceRules);
        status.put("nonResourceRules", List.of(Map.of("verbs", List.of("get"), "nonResourceURLs",
                List.of("/api", "/api/*", "/apis", "/apis/*", "/openapi", "/openapi/*", "/version"))));
        status.put("incomplete", false);
        return status;
    }
}
