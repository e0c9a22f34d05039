package dev.platform.scheduler.config;

import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.CohortManifest;
import dev.platform.api.manifest.FairSharing;
import dev.platform.api.manifest.LabelSelector;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.api.manifest.NamespaceManifest;
import dev.platform.api.manifest.PriorityClassManifest;
import dev.platform.api.manifest.Quantity;
import dev.platform.api.manifest.ResourceFlavorManifest;
import dev.platform.api.manifest.ResourceGroup;
import dev.platform.api.manifest.TeamManifest;
import dev.platform.api.manifest.WorkloadPriorityClassManifest;

import static dev.platform.scheduler.web.KubernetesYaml.object;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Configuration objects as Kubernetes writes them ({@code kubectl get -o yaml}): apiVersion (the newest the
 * platform reads), kind, metadata, spec with the defaults applied, status. Each decodes back to the object it came
 * from, so applying it again with {@code POST /api/v1/manifests} is {@code unchanged}.
 */
public final class KubernetesObjects {

    public static final String KUEUE = "kueue.x-k8s.io/v1beta2";

    private KubernetesObjects() {
    }

    public static Map<String, Object> metadata(String namespace, String name) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        putIf(metadata, "namespace", namespace);
        return metadata;
    }

    public static Map<String, Object> resourceFlavor(ResourceFlavorManifest f) {
        Map<String, Object> spec = new LinkedHashMap<>();
        putIf(spec, "nodeLabels", f.nodeLabels().isEmpty() ? null : new TreeMap<>(f.nodeLabels()));
        putIf(spec, "nodeTaints", f.nodeTaints().isEmpty() ? null : f.nodeTaints().stream().map(t -> {
            Map<String, Object> taint = new LinkedHashMap<>();
            taint.put("key", t.key());
            putIf(taint, "value", t.value());
            taint.put("effect", t.effect());
            return taint;
        }).toList());
        putIf(spec, "tolerations", f.tolerations().isEmpty() ? null : f.tolerations().stream().map(t -> {
            Map<String, Object> toleration = new LinkedHashMap<>();
            putIf(toleration, "key", t.key());
            putIf(toleration, "operator", t.operator());
            putIf(toleration, "value", t.value());
            putIf(toleration, "effect", t.effect());
            putIf(toleration, "tolerationSeconds", t.tolerationSeconds());
            return toleration;
        }).toList());
        putIf(spec, "topologyName", f.topologyName());
        return object(KUEUE, "ResourceFlavor", metadata(null, f.name()), spec, null);
    }

    /** A Cohort object; an implicit cohort (named only by ClusterQueues) reads as an object without quota. */
    public static Map<String, Object> cohort(ConfigurationController.CohortView view) {
        Map<String, Object> spec = new LinkedHashMap<>();
        CohortManifest c = view.spec();
        if (c != null) {
            putIf(spec, "parentName", c.parentName());
            putIf(spec, "resourceGroups", c.resourceGroups().isEmpty() ? null : resourceGroups(c.resourceGroups()));
            spec.put("fairSharing", fairSharing(c.fairSharing()));
        }
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("clusterQueues", view.clusterQueues());
        return object(KUEUE, "Cohort", metadata(null, view.name()), spec, status);
    }

    public static Map<String, Object> clusterQueue(ClusterQueueView view) {
        ClusterQueueManifest q = view.spec();
        Map<String, Object> spec = new LinkedHashMap<>();
        putIf(spec, "cohortName", q.cohort());
        spec.put("resourceGroups", resourceGroups(q.resourceGroups()));
        spec.put("queueingStrategy", q.queueingStrategy().name());
        spec.put("namespaceSelector", labelSelector(q.namespaceSelector()));
        Map<String, Object> fungibility = new LinkedHashMap<>();
        fungibility.put("whenCanBorrow", q.flavorFungibility().whenCanBorrow().name());
        fungibility.put("whenCanPreempt", q.flavorFungibility().whenCanPreempt().name());
        putIf(fungibility, "preference", q.flavorFungibility().preference() == null ? null
                : q.flavorFungibility().preference().name());
        spec.put("flavorFungibility", fungibility);
        Map<String, Object> borrow = new LinkedHashMap<>();
        borrow.put("policy", q.preemption().borrowWithinCohort().policy().name());
        putIf(borrow, "maxPriorityThreshold", q.preemption().borrowWithinCohort().maxPriorityThreshold());
        Map<String, Object> preemption = new LinkedHashMap<>();
        preemption.put("withinClusterQueue", q.preemption().withinClusterQueue().name());
        preemption.put("reclaimWithinCohort", q.preemption().reclaimWithinCohort().name());
        preemption.put("borrowWithinCohort", borrow);
        spec.put("preemption", preemption);
        spec.put("fairSharing", fairSharing(q.fairSharing()));
        spec.put("stopPolicy", q.stopPolicy().name());
        if (q.admissionScope() != null) {
            spec.put("admissionScope", Map.of("admissionMode", q.admissionScope().admissionMode().name()));
        }
        if (!q.admissionChecks().isEmpty()) {
            // v1beta2 has only the strategy, and v1beta1 reads it too: a v1beta1 spec.admissionChecks is the
            // strategy's rules without onFlavors
            spec.put("admissionChecksStrategy", Map.of("admissionChecks", q.admissionChecks().stream().map(r -> {
                Map<String, Object> rule = new LinkedHashMap<>();
                rule.put("name", r.name());
                if (!r.onFlavors().isEmpty()) {
                    rule.put("onFlavors", r.onFlavors());
                }
                return rule;
            }).toList()));
        }

        Map<String, Object> status = new LinkedHashMap<>();
        status.put("conditions", List.of(activeCondition(view.status().active(), view.status().reason(),
                view.status().message())));
        Map<String, List<Map<String, Object>>> byFlavor = new LinkedHashMap<>();
        for (QueueUsage.ResourceUsage usage : view.usage()) {
            Map<String, Object> resource = new LinkedHashMap<>();
            resource.put("name", usage.resource());
            resource.put("total", usage.used());
            resource.put("borrowed", usage.borrowed());
            byFlavor.computeIfAbsent(usage.flavor(), k -> new ArrayList<>()).add(resource);
        }
        status.put("flavorsUsage", byFlavor.entrySet().stream()
                .map(e -> Map.of("name", e.getKey(), "resources", e.getValue())).toList());
        status.put("pendingWorkloads", view.pendingWorkloads());
        status.put("reservingWorkloads", view.admittedWorkloads());
        status.put("admittedWorkloads", view.admittedWorkloads());
        Map<String, Object> metadata = metadata(null, q.name());
        putIf(metadata, "annotations", q.annotations().isEmpty() ? null : new TreeMap<>(q.annotations()));
        return object(KUEUE, "ClusterQueue", metadata, spec, status);
    }

    public static Map<String, Object> localQueue(LocalQueueView l) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("clusterQueue", l.clusterQueue());
        spec.put("stopPolicy", l.stopPolicy().name());
        spec.put("fairSharing", fairSharing(l.fairSharing()));
        boolean active = l.stopPolicy() == ClusterQueueManifest.StopPolicy.None;
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("conditions", List.of(activeCondition(active, active ? "Ready" : "Stopped",
                active ? "Can submit new workloads to localQueue" : "LocalQueue is stopped")));
        if (l.status() != null) {
            status.put("fairSharing", l.status().fairSharing());
        }
        return object(KUEUE, "LocalQueue", metadata(l.namespace(), l.name()), spec, status);
    }

    public static Map<String, Object> workloadPriorityClass(WorkloadPriorityClassManifest p) {
        Map<String, Object> object = object(KUEUE, "WorkloadPriorityClass", metadata(null, p.name()), null, null);
        object.put("value", p.value());
        putIf(object, "description", p.description());
        return object;
    }

    public static Map<String, Object> priorityClass(PriorityClassManifest p) {
        Map<String, Object> object = object("scheduling.k8s.io/v1", "PriorityClass", metadata(null, p.name()), null,
                null);
        object.put("value", p.value());
        if (p.globalDefault()) {
            object.put("globalDefault", true);
        }
        putIf(object, "description", p.description());
        object.put("preemptionPolicy", p.preemptionPolicy());
        return object;
    }

    public static Map<String, Object> namespace(NamespaceManifest n) {
        Map<String, Object> metadata = metadata(null, n.name());
        metadata.put("labels", new TreeMap<>(n.labels()));
        return object("v1", "Namespace", metadata, null, Map.of("phase", "Active"));
    }

    public static Map<String, Object> team(TeamManifest t) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("namespaces", t.namespaces());
        spec.put("members", t.members().stream().map(m -> {
            Map<String, Object> member = new LinkedHashMap<>();
            member.put("user", m.user());
            member.put("role", m.role().name());
            return member;
        }).toList());
        if (t.allowedPriorityClasses() != null) {
            spec.put("allowedPriorityClasses", t.allowedPriorityClasses());
        }
        return object("platform.dev/v1", "Team", metadata(null, t.name()), spec, null);
    }

    private static List<Map<String, Object>> resourceGroups(List<ResourceGroup> groups) {
        return groups.stream().map(g -> {
            Map<String, Object> group = new LinkedHashMap<>();
            group.put("coveredResources", g.coveredResources());
            group.put("flavors", g.flavors().stream().map(f -> {
                Map<String, Object> flavor = new LinkedHashMap<>();
                flavor.put("name", f.name());
                flavor.put("resources", f.resources().stream().map(r -> {
                    Map<String, Object> resource = new LinkedHashMap<>();
                    resource.put("name", r.name());
                    resource.put("nominalQuota", text(r.nominalQuota()));
                    putIf(resource, "borrowingLimit", text(r.borrowingLimit()));
                    putIf(resource, "lendingLimit", text(r.lendingLimit()));
                    return resource;
                }).toList());
                return flavor;
            }).toList());
            return group;
        }).toList();
    }

    private static Map<String, Object> labelSelector(LabelSelector selector) {
        Map<String, Object> out = new LinkedHashMap<>();
        putIf(out, "matchLabels", selector.matchLabels().isEmpty() ? null : new TreeMap<>(selector.matchLabels()));
        putIf(out, "matchExpressions", selector.matchExpressions().isEmpty() ? null
                : selector.matchExpressions().stream().map(r -> {
                    Map<String, Object> requirement = new LinkedHashMap<>();
                    requirement.put("key", r.key());
                    requirement.put("operator", r.operator());
                    putIf(requirement, "values", r.values().isEmpty() ? null : r.values());
                    return requirement;
                }).toList());
        return out;
    }

    private static Map<String, Object> fairSharing(FairSharing fairSharing) {
        return Map.of("weight", text(fairSharing.weight()));
    }

    private static Map<String, Object> activeCondition(boolean active, String reason, String message) {
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", "Active");
        condition.put("status", active ? "True" : "False");
        condition.put("reason", reason);
        condition.put("message", message);
        return condition;
    }

    private static String text(Quantity quantity) {
        return quantity == null ? null : quantity.toString();
    }

    private static void putIf(Map<String, Object> map, String key, Object value) {
        if (value != null) {
            map.put(key, value);
        }
    }
}
