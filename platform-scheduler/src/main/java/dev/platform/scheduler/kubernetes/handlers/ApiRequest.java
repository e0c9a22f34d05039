package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.api.identity.Caller;
import dev.platform.api.manifest.FieldValidation;
import dev.platform.scheduler.kubernetes.registry.ResourceKind;
import dev.platform.scheduler.kubernetes.registry.Verb;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A request for a resource, as kube-apiserver's RequestInfo reads it from the path:
 * {@code /api/v1/[namespaces/{ns}/]{resource}[/{name}[/{subresource}]]} and the same under
 * {@code /apis/{group}/{version}}; the verb from the method and the {@code watch} parameter.
 */
public record ApiRequest(String method, String group, String version, String resource, String namespace,
                         String name, String subresource, Map<String, String> parameters, Caller caller,
                         String accept, String contentType, String userAgent) {

    /** Namespaces' own subresources: {@code /api/v1/namespaces/{name}/status} is not a resource in a namespace. */
    private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

    /** The resource part of a path: empty when the path names no group version (discovery of groups). */
    public static ApiRequest parse(String method, List<String> parts, Map<String, String> parameters, Caller caller,
                                   String accept, String contentType, String userAgent) {
        String group;
        List<String> rest;
        if (parts.size() >= 2 && parts.get(0).equals("api")) {
            group = "";
            rest = parts.subList(2, parts.size());
        } else if (parts.size() >= 3 && parts.get(0).equals("apis")) {
            group = parts.get(1);
            rest = parts.subList(3, parts.size());
        } else {
            throw StatusError.noResource();
        }
        String version = parts.get(0).equals("api") ? parts.get(1) : parts.get(2);
        String namespace = null;
        if (rest.size() >= 3 && rest.get(0).equals("namespaces") && !NAMESPACE_SUBRESOURCES.contains(rest.get(2))) {
            namespace = rest.get(1);
            rest = rest.subList(2, rest.size());
        }
        if (rest.isEmpty()) {
            throw StatusError.noResource();
        }
        String name = rest.size() >= 2 ? rest.get(1) : null;
        String subresource = rest.size() >= 3 ? String.join("/", rest.subList(2, rest.size())) : null;
        return new ApiRequest(method, group, version, rest.get(0), namespace, name, subresource, parameters, caller,
                accept, contentType, userAgent);
    }

    public Verb verb() {
        return switch (method) {
            case "GET", "HEAD" -> name != null ? Verb.get
                    : isTrue(parameters.get("watch")) ? Verb.watch : Verb.list;
            case "POST" -> Verb.create;
            case "PUT" -> Verb.update;
            case "PATCH" -> Verb.patch;
            case "DELETE" -> name != null ? Verb.delete : Verb.deletecollection;
            default -> throw StatusError.methodNotSupported();
        };
    }

    /** The same request without {@code limit} and {@code continue}: every object at once. */
    public ApiRequest withoutPaging() {
        Map<String, String> all = new java.util.LinkedHashMap<>(parameters);
        all.remove("limit");
        all.remove("continue");
        return new ApiRequest(method, group, version, resource, namespace, name, subresource, all, caller, accept,
                contentType, userAgent);
    }

    /** The field manager of a write: the {@code fieldManager} parameter, else the client's name. */
    public String fieldManager() {
        return FieldManagers.managerOf(this, userAgent);
    }

    public String parameter(String key) {
        return parameters.get(key);
    }

    public boolean dryRun() {
        return "All".equals(parameters.get("dryRun"));
    }

    /** kubectl's {@code --validate}: Strict, Warn or Ignore, in any case; Warn when not given, as kube-apiserver. */
    public FieldValidation fieldValidation() {
        String value = parameters.get("fieldValidation");
        if (value == null || value.isEmpty()) {
            return FieldValidation.Warn;
        }
        for (FieldValidation v : FieldValidation.values()) {
            if (v.name().equalsIgnoreCase(value)) {
                return v;
            }
        }
        throw StatusError.badRequest("fieldValidation must be one of Strict, Warn or Ignore, got \"" + value + "\"");
    }

    /** The namespace of a namespaced kind's request; null for cluster-scoped kinds. */
    public String namespaceFor(ResourceKind kind) {
        return kind.namespaced() ? namespace : null;
    }

    /**
     * A boolean query parameter as kube-apiserver converts it: given and neither "0" nor "false" in any case is true,
     * so the Python client's {@code watch=True} watches.
     */
    static boolean isTrue(String value) {
        return value != null && !value.equals("0") && !value.equalsIgnoreCase("false");
    }
}
