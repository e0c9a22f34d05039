package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.scheduler.kubernetes.registry.KindRegistry;
import dev.platform.scheduler.kubernetes.registry.ResourceKind;
import dev.platform.scheduler.kubernetes.registry.Verb;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /version} and the legacy discovery documents ({@code /api}, {@code /api/v1}, {@code /apis},
 * {@code /apis/<group>}, {@code /apis/<group>/<version>}), built from the registry. Clients that ask for the
 * aggregated form get these and fall back to them, as they do with any server that does not offer it.
 */
public final class DiscoveryHandler {

    /** The Kubernetes API version whose conventions the platform follows and is tested against. */
    static final String MAJOR = "1";
    static final String MINOR = "33";

    private final KindRegistry registry;
    private final Responses responses;

    DiscoveryHandler(KindRegistry registry, Responses responses) {
        this.registry = registry;
        this.responses = responses;
    }

    public void version(HttpServletResponse response, String platformVersion) throws IOException {
        Map<String, Object> version = new LinkedHashMap<>();
        version.put("major", MAJOR);
        version.put("minor", MINOR);
        version.put("gitVersion", "v" + MAJOR + "." + MINOR + ".0+platform-" + platformVersion);
        version.put("gitCommit", "");
        version.put("gitTreeState", "clean");
        version.put("buildDate", "");
        version.put("goVersion", "java" + Runtime.version().feature());
        version.put("compiler", "javac");
        version.put("platform", System.getProperty("os.name").toLowerCase() + "/" + System.getProperty("os.arch"));
        responses.write(response, version);
    }

    /** {@code /api}: the core group's versions. */
    public void coreVersions(HttpServletResponse response, String serverAddress) throws IOException {
        Map<String, Object> versions = new LinkedHashMap<>();
        versions.put("kind", "APIVersions");
        versions.put("versions", List.of("v1"));
        versions.put("serverAddressByClientCIDRs", List.of(Map.of("clientCIDR", "0.0.0.0/0",
                "serverAddress", serverAddress)));
        responses.write(response, versions);
    }

    /** {@code /apis}: every named group with its versions. */
    public void groups(HttpServletResponse response) throws IOException {
        List<Map<String, Object>> groups = new ArrayList<>();
        registry.groups().forEach((group, versions) -> {
            if (!group.isEmpty()) {
                groups.add(group(group, versions));
            }
        });
        Map<String, Object> list = new LinkedHashMap<>();
        list.put("kind", "APIGroupList");
        list.put("apiVersion", "v1");
        list.put("groups", groups);
        responses.write(response, list);
    }

    /** {@code /apis/<group>}. */
    public void group(HttpServletResponse response, String group) throws IOException {
        List<String> versions = registry.groups().get(group);
        if (versions == null || group.isEmpty()) {
            throw StatusError.noResource();
        }
        Map<String, Object> body = group(group, versions);
        body.put("kind", "APIGroup");
        body.put("apiVersion", "v1");
        responses.write(response, body);
    }

    private static Map<String, Object> group(String group, List<String> versions) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", group);
        body.put("versions", versions.stream().map(v -> Map.of("groupVersion", group + "/" + v, "version", v))
                .toList());
        body.put("preferredVersion", Map.of("groupVersion", group + "/" + versions.get(0), "version",
                versions.get(0)));
        return body;
    }

    /** {@code /api/v1} or {@code /apis/<group>/<version>}: the resources of one group version. */
    public void resources(HttpServletResponse response, String group, String version) throws IOException {
        List<ResourceKind> kinds = registry.inGroupVersion(group, version);
        if (kinds.isEmpty()) {
            throw StatusError.noResource();
        }
        List<Map<String, Object>> resources = new ArrayList<>();
        for (ResourceKind kind : kinds) {
            Map<String, Object> resource = new LinkedHashMap<>();
            resource.put("name", kind.plural());
            resource.put("singularName", kind.singular());
            resource.put("namespaced", kind.namespaced());
            resource.put("kind", kind.kind());
            resource.put("verbs", kind.verbs().stream().sorted().map(Verb::name).toList());
            if (!kind.shortNames().isEmpty()) {
                resource.put("shortNames", kind.shortNames());
            }
            if (!kind.categories().isEmpty()) {
                resource.put("categories", kind.categories());
            }
            resource.put("storageVersionHash", storageVersionHash(kind));
            resources.add(resource);
            for (String subresource : kind.subresources()) {
                Map<String, Object> sub = new LinkedHashMap<>();
                sub.put("name", kind.plural() + "/" + subresource);
                sub.put("singularName", "");
                sub.put("namespaced", kind.namespaced());
                sub.put("kind", subresource.equals("status") ? kind.kind() : subresourceKind(subresource));
                sub.put("verbs", subresource.equals("status") ? List.of("get", "patch", "update") : List.of("get"));
                resources.add(sub);
            }
        }
        Map<String, Object> list = new LinkedHashMap<>();
        list.put("kind", "APIResourceList");
        list.put("apiVersion", "v1");
        list.put("groupVersion", group.isEmpty() ? version : group + "/" + version);
        list.put("resources", resources);
        responses.write(response, list);
    }

    private static String subresourceKind(String subresource) {
        return subresource.equals("pendingworkloads") ? "PendingWorkloadsSummary" : subresource;
    }

    /** As kube-apiserver: eight bytes of a hash of group, version and kind, base64. */
    private static String storageVersionHash(ResourceKind kind) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest((kind.group() + "/" + kind.preferredVersion()
                    + "/" + kind.kind()).getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(hash, 8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is a required algorithm of every Java platform", e);
        }
    }
}
