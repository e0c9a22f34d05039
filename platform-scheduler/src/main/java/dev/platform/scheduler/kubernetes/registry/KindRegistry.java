package dev.platform.scheduler.kubernetes.registry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every served resource, by group, version and plural name: the one list that discovery, OpenAPI, Tables,
 * authorization and the verb handlers read (as kube-apiserver's installer builds its routes from its registered
 * storage). {@link ServedKinds} fills it.
 */
public final class KindRegistry {

    private final List<ResourceKind> kinds;

    public KindRegistry(List<ResourceKind> kinds) {
        this.kinds = List.copyOf(kinds);
    }

    public List<ResourceKind> all() {
        return kinds;
    }

    /** The resource {@code plural} of {@code group} served in {@code version}. */
    public Optional<ResourceKind> find(String group, String version, String plural) {
        return kinds.stream().filter(k -> k.group().equals(group) && k.plural().equals(plural)
                && k.versions().contains(version)).findFirst();
    }

    /** The kind named {@code kind} of {@code group}. */
    public Optional<ResourceKind> byKind(String group, String kind) {
        return kinds.stream().filter(k -> k.group().equals(group) && k.kind().equals(kind)).findFirst();
    }

    /** The groups with their versions, the preferred first, in the order kinds were registered. */
    public Map<String, List<String>> groups() {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (ResourceKind kind : kinds) {
            List<String> versions = groups.computeIfAbsent(kind.group(), g -> new ArrayList<>());
            kind.versions().forEach(v -> {
                if (!versions.contains(v)) {
                    versions.add(v);
                }
            });
        }
        return groups;
    }

    /** The resources served in one group version. */
    public List<ResourceKind> inGroupVersion(String group, String version) {
        return kinds.stream().filter(k -> k.group().equals(group) && k.versions().contains(version)).toList();
    }
}
