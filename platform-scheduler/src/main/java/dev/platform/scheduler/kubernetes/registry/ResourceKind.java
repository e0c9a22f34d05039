package dev.platform.scheduler.kubernetes.registry;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * One served resource: everything discovery, OpenAPI, Tables, authorization and the verb handlers need to know of it.
 * Adding a kind to the API is one of these in {@link KindRegistry} and an {@link ObjectStore} that maps it onto a
 * service.
 *
 * @param versions   the versions served, the preferred (storage) one first
 * @param columns    the columns of {@code kubectl get}; the NAME column comes first without being listed
 * @param schema     the OpenAPI v3 schema of the object in a served version (descriptions for
 *                   {@code kubectl explain}); versions differ where the kind's own API does
 * @param conversion turns an object of the preferred version into the asked one, and back (target version given)
 * @param subresources served subresources besides the object itself ({@code status})
 */
public record ResourceKind(String group, List<String> versions, String kind, String plural, String singular,
                           boolean namespaced, List<String> shortNames, List<String> categories, Set<Verb> verbs,
                           List<PrinterColumn> columns, Function<String, Map<String, Object>> schema, ObjectStore store,
                           Access access,
                           BiFunction<Map<String, Object>, String, Map<String, Object>> conversion,
                           List<String> subresources) {

    public ResourceKind {
        versions = List.copyOf(versions);
        shortNames = List.copyOf(shortNames);
        categories = List.copyOf(categories);
        verbs = Set.copyOf(verbs);
        columns = List.copyOf(columns);
        subresources = List.copyOf(subresources);
    }

    public String preferredVersion() {
        return versions.get(0);
    }

    /** {@code apiVersion} of an object in {@code version}: {@code v1} for the core group. */
    public String apiVersion(String version) {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** The resource as kube-apiserver names it in messages: {@code clusterqueues.kueue.x-k8s.io}, {@code namespaces}. */
    public String qualifiedResource() {
        return group.isEmpty() ? plural : plural + "." + group;
    }

    /** The kind qualified by its group, as in {@code NewInvalid}: {@code ClusterQueue.kueue.x-k8s.io}. */
    public String qualifiedKind() {
        return group.isEmpty() ? kind : kind + "." + group;
    }

    public boolean serves(Verb verb) {
        return verbs.contains(verb);
    }

    /** The OpenAPI v3 schema of the object in {@code version}. */
    public Map<String, Object> schemaIn(String version) {
        return schema.apply(version);
    }

    /** The object converted from the preferred version to {@code version}. */
    public Map<String, Object> inVersion(Map<String, Object> object, String version) {
        return conversion.apply(object, version);
    }
}
