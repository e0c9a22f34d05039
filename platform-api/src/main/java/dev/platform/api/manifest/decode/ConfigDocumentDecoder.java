package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.AdmissionCheckManifest;
import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.ClusterQueueManifest.AdmissionMode;
import dev.platform.api.manifest.ClusterQueueManifest.AdmissionScope;
import dev.platform.api.manifest.ClusterQueueManifest.BorrowWithinCohort;
import dev.platform.api.manifest.ClusterQueueManifest.BorrowWithinCohortPolicy;
import dev.platform.api.manifest.ClusterQueueManifest.FlavorFungibility;
import dev.platform.api.manifest.ClusterQueueManifest.FungibilityPolicy;
import dev.platform.api.manifest.ClusterQueueManifest.FungibilityPreference;
import dev.platform.api.manifest.ClusterQueueManifest.Preemption;
import dev.platform.api.manifest.ClusterQueueManifest.QueueingStrategy;
import dev.platform.api.manifest.ClusterQueueManifest.ReclaimWithinCohort;
import dev.platform.api.manifest.ClusterQueueManifest.StopPolicy;
import dev.platform.api.manifest.ClusterQueueManifest.WithinClusterQueue;
import dev.platform.api.manifest.CohortManifest;
import dev.platform.api.manifest.ConfigManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.LabelSelector;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.api.manifest.NamespaceManifest;
import dev.platform.api.manifest.ObjectMeta;
import dev.platform.api.manifest.PreemptionAnnotations;
import dev.platform.api.manifest.PriorityClassManifest;
import dev.platform.api.manifest.ProvisioningRequestConfigManifest;
import dev.platform.api.manifest.ResourceFlavorManifest;
import dev.platform.api.manifest.ResourceFlavorManifest.Taint;
import dev.platform.api.manifest.ResourceFlavorManifest.Toleration;
import dev.platform.api.manifest.TeamManifest;
import dev.platform.api.manifest.WorkloadPriorityClassManifest;
import dev.platform.api.identity.TeamRole;
import dev.platform.api.identity.UserNames;
import dev.platform.api.manifest.decode.KubernetesFields.TypeMeta;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decodes one document of a configuration kind into its record, checking what Kueue's CRD
 * schemas and webhooks check (and a little more), every problem at its exact path.
 */
final class ConfigDocumentDecoder {

    /** Kubernetes' HighestUserDefinablePriority: higher values belong to system classes. */
    static final int HIGHEST_USER_PRIORITY = 1_000_000_000;
    private static final String V1BETA1 = "kueue.x-k8s.io/v1beta1";
    private static final List<String> SELECTOR_OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist");
    private static final List<String> PREEMPTION_POLICIES = List.of("PreemptLowerPriority", "Never");
    private static final List<String> TEAM_ROLES = List.of("TeamLead", "Engineer");
    /** Namespaces and members per team: plenty for a team, a bound for a request. */
    private static final int MAX_TEAM_ENTRIES = 1000;
    /** Kueue ClusterQueue fields outside the platform's scope: accepted, said to be ignored. */
    private static final List<String> UNSUPPORTED_CLUSTER_QUEUE_FIELDS =
            List.of("concurrentAdmissionPolicy");
    private static final int MAX_ADMISSION_CHECKS = 64;

    /** The decoded object of a configuration kind, whose apiVersion and kind have been checked. */
    ConfigManifest decode(FieldCursor root, TypeMeta type) {
        // Status is what a cluster reports, never an input; kubectl output carries it.
        root.skip("status");
        Kind kind = type.kind();
        ObjectMeta metadata = KubernetesFields.objectMeta(root, kind, KubernetesFields.DEFAULT_NAMESPACE);
        String name = metadata.name();
        return switch (kind) {
            case RESOURCE_FLAVOR -> resourceFlavor(name, root.objectOrEmpty("spec"));
            case COHORT -> cohort(name, root.objectOrEmpty("spec"));
            case CLUSTER_QUEUE -> clusterQueue(metadata, root, V1BETA1.equals(type.apiVersion()));
            case LOCAL_QUEUE -> localQueue(metadata.namespace(), name, root.objectOrEmpty("spec"));
            case WORKLOAD_PRIORITY_CLASS -> workloadPriorityClass(name, root);
            case PRIORITY_CLASS -> priorityClass(name, root);
            case NAMESPACE -> namespace(metadata, root);
            case TEAM -> team(name, root.objectOrEmpty("spec"));
            case ADMISSION_CHECK -> admissionCheck(name, root.objectOrEmpty("spec"));
            case PROVISIONING_REQUEST_CONFIG -> provisioningRequestConfig(name, root.objectOrEmpty("spec"));
            case JOB_SET, JOB, WORKLOAD -> throw new IllegalArgumentException("not a configuration kind: " + kind);
        };
    }

    private static ResourceFlavorManifest resourceFlavor(String name, FieldCursor spec) {
        Map<String, String> nodeLabels = KubernetesFields.labels(spec, "nodeLabels");
        List<Taint> taints = new ArrayList<>();
        Set<String> keyAndEffect = new HashSet<>();
        List<FieldCursor> taintNodes = atMost(spec, "nodeTaints", 8);
        for (FieldCursor taint : taintNodes) {
            String key = taint.requiredName("key", KubernetesNames::qualifiedNameProblem);
            String value = taint.name("value", KubernetesNames::labelValueProblem);
            String effect = taint.requiredOneOf("effect", KubernetesFields.TAINT_EFFECTS);
            taint.skip("timeAdded");
            if (key != null && effect != null && !keyAndEffect.add(key + "\u0000" + effect)) {
                taint.error("key", "taint '" + key + ":" + effect + "' is listed twice; taints must be unique by key"
                        + " and effect");
            }
            taints.add(new Taint(key, value, effect));
        }
        List<Toleration> tolerations = new ArrayList<>();
        for (FieldCursor toleration : atMost(spec, "tolerations", 8)) {
            tolerations.add(KubernetesFields.toleration(toleration));
        }
        String topologyName = spec.name("topologyName", KubernetesNames::subdomainProblem);
        if (topologyName != null && nodeLabels.isEmpty()) {
            spec.error("topologyName", "at least one nodeLabel is required when topologyName is set");
        }
        return new ResourceFlavorManifest(name, nodeLabels, taints, tolerations, topologyName);
    }

    private static CohortManifest cohort(String name, FieldCursor spec) {
        String parent = reference(spec, "parentName");
        if (parent != null && parent.equals(name)) {
            spec.error("parentName", "a cohort cannot be its own parent");
        }
        var owner = new QuotaDecoder.Owner(true, parent != null);
        return new CohortManifest(name, parent, QuotaDecoder.resourceGroups(spec, owner),
                QuotaDecoder.fairSharing(spec));
    }

    private static ClusterQueueManifest clusterQueue(ObjectMeta metadata, FieldCursor root, boolean v1beta1) {
        String name = metadata.name();
        FieldCursor spec = root.objectOrEmpty("spec");
        metadata.annotations().forEach((key, value) -> {
            String problem = PreemptionAnnotations.clusterQueueProblem(key, value);
            if (problem != null) {
                root.findings().error("metadata.annotations." + key, problem);
            }
        });
        String cohortField = v1beta1 ? "cohort" : "cohortName";
        String otherField = v1beta1 ? "cohortName" : "cohort";
        String cohort = reference(spec, cohortField);
        spec.ignoreWithWarning(otherField, "not a field of this apiVersion (" + (v1beta1 ? "v1beta1" : "v1beta2")
                + " names the cohort spec." + cohortField + ")", "ignored");
        for (String field : UNSUPPORTED_CLUSTER_QUEUE_FIELDS) {
            spec.ignoreWithWarning(field, "a Kueue field the platform does not implement", "ignored");
        }
        var owner = new QuotaDecoder.Owner(false, cohort != null);
        return new ClusterQueueManifest(
                name,
                cohort,
                QuotaDecoder.resourceGroups(spec, owner),
                spec.oneOf("queueingStrategy", QueueingStrategy.class),
                labelSelector(spec.object("namespaceSelector")),
                flavorFungibility(spec.object("flavorFungibility"), v1beta1),
                preemption(spec.object("preemption")),
                QuotaDecoder.fairSharing(spec),
                spec.oneOf("stopPolicy", StopPolicy.class),
                admissionScope(spec.object("admissionScope")),
                PreemptionAnnotations.platformAnnotations(metadata.annotations()),
                admissionChecks(spec, v1beta1));
    }

    /**
     * v1beta1's {@code admissionChecks} (names, every flavor) or {@code admissionChecksStrategy} (rules with
     * {@code onFlavors}), not both, as Kueue's webhook says; v1beta2 has only the strategy. A check named twice is
     * an error.
     */
    private static List<ClusterQueueManifest.AdmissionCheckRule> admissionChecks(FieldCursor spec, boolean v1beta1) {
        List<ClusterQueueManifest.AdmissionCheckRule> rules = new ArrayList<>();
        if (spec.has("admissionChecks")) {
            if (!v1beta1) {
                spec.error("admissionChecks", "not a field of kueue.x-k8s.io/v1beta2; name the checks in"
                        + " spec.admissionChecksStrategy.admissionChecks");
            } else if (spec.has("admissionChecksStrategy")) {
                spec.error("admissionChecks", "either admissionChecks or admissionChecksStrategy can be set, but not both");
            }
            for (String name : spec.strings("admissionChecks")) {
                rules.add(new ClusterQueueManifest.AdmissionCheckRule(name, List.of()));
            }
        }
        FieldCursor strategy = spec.object("admissionChecksStrategy");
        if (strategy != null) {
            for (FieldCursor rule : atMost(strategy, "admissionChecks", MAX_ADMISSION_CHECKS)) {
                String name = rule.requiredName("name", KubernetesNames::subdomainProblem);
                List<String> onFlavors = rule.strings("onFlavors");
                rules.add(new ClusterQueueManifest.AdmissionCheckRule(name, onFlavors));
            }
        }
        Set<String> seen = new HashSet<>();
        for (ClusterQueueManifest.AdmissionCheckRule r : rules) {
            if (r.name() != null && !seen.add(r.name())) {
                spec.error(strategy != null ? "admissionChecksStrategy" : "admissionChecks",
                        "admission check " + r.name() + " is named twice");
            }
        }
        return rules;
    }

    /** Kueue's AdmissionCheck: controllerName is required and never changes meaning; parameters optional. */
    private static AdmissionCheckManifest admissionCheck(String name, FieldCursor spec) {
        String controllerName = spec.requiredString("controllerName");
        if (controllerName != null && controllerName.isEmpty()) {
            spec.error("controllerName", "must not be empty");
        }
        spec.ignoreWithWarning("retryDelayMinutes", "deprecated in Kueue and unused", "ignored");
        FieldCursor parameters = spec.object("parameters");
        AdmissionCheckManifest.Parameters refs = null;
        if (parameters != null) {
            refs = new AdmissionCheckManifest.Parameters(parameters.string("apiGroup"),
                    parameters.requiredString("kind"), parameters.requiredName("name", KubernetesNames::subdomainProblem));
        }
        if (AdmissionCheckManifest.PROVISIONING_CONTROLLER.equals(controllerName) && refs != null
                && !"ProvisioningRequestConfig".equals(refs.kind())) {
            parameters.error("kind", "a " + AdmissionCheckManifest.PROVISIONING_CONTROLLER
                    + " check takes a ProvisioningRequestConfig");
        }
        return new AdmissionCheckManifest(name, controllerName, refs);
    }

    /** Kueue's ProvisioningRequestConfig with its CRD's limits and defaults. */
    private static ProvisioningRequestConfigManifest provisioningRequestConfig(String name, FieldCursor spec) {
        String className = spec.requiredString("provisioningClassName");
        if (className != null && (className.isEmpty() || className.length() > 253)) {
            spec.error("provisioningClassName", "must be 1 to 253 characters");
        }
        Map<String, String> parameters = spec.stringMap("parameters");
        if (parameters.size() > 100) {
            spec.error("parameters", "has " + parameters.size() + " entries; at most 100 are allowed");
        }
        List<String> managed = spec.strings("managedResources");
        if (managed.size() > 100) {
            spec.error("managedResources", "has " + managed.size() + " items; at most 100 are allowed");
        }
        FieldCursor retry = spec.object("retryStrategy");
        ProvisioningRequestConfigManifest.RetryStrategy strategy = null;
        if (retry != null) {
            strategy = new ProvisioningRequestConfigManifest.RetryStrategy(nonNegative(retry, "backoffLimitCount"),
                    nonNegative(retry, "backoffBaseSeconds"), nonNegative(retry, "backoffMaxSeconds"));
        }
        spec.ignoreWithWarning("podSetUpdates", "node selectors from provisioningClassDetails are not applied",
                "ignored");
        return new ProvisioningRequestConfigManifest(name, className, parameters, managed, strategy,
                spec.oneOf("podSetMergePolicy", ProvisioningRequestConfigManifest.PodSetMergePolicy.class));
    }

    private static Integer nonNegative(FieldCursor node, String field) {
        Integer value = node.int32(field);
        if (value != null && value < 0) {
            node.error(field, "must be 0 or more");
            return null;
        }
        return value;
    }

    /** Kueue requires admissionMode once admissionScope is given. */
    private static AdmissionScope admissionScope(FieldCursor scope) {
        if (scope == null) {
            return null;
        }
        return new AdmissionScope(scope.require("admissionMode") ? scope.oneOf("admissionMode", AdmissionMode.class)
                : null);
    }

    /** v1beta1 also spells MayStopSearch as Borrow (whenCanBorrow) or Preempt (whenCanPreempt); v1beta2 does not. */
    private static FlavorFungibility flavorFungibility(FieldCursor fungibility, boolean v1beta1) {
        if (fungibility == null) {
            return null;
        }
        FungibilityPolicy whenCanBorrow = fungibilityPolicy(fungibility, "whenCanBorrow", v1beta1 ? "Borrow" : null);
        FungibilityPolicy whenCanPreempt = fungibilityPolicy(fungibility, "whenCanPreempt", v1beta1 ? "Preempt" : null);
        FungibilityPreference preference = fungibility.oneOf("preference", FungibilityPreference.class);
        FlavorFungibility decoded = new FlavorFungibility(whenCanBorrow, whenCanPreempt, preference);
        if (preference != null && (decoded.whenCanBorrow() != FungibilityPolicy.TryNextFlavor
                || decoded.whenCanPreempt() != FungibilityPolicy.TryNextFlavor)) {
            fungibility.error("preference", "preference " + preference + " requires both whenCanBorrow and"
                    + " whenCanPreempt to be TryNextFlavor");
        }
        return decoded;
    }

    private static FungibilityPolicy fungibilityPolicy(FieldCursor fungibility, String field, String legacyWord) {
        List<String> allowed = new ArrayList<>(List.of("MayStopSearch", "TryNextFlavor"));
        if (legacyWord != null) {
            allowed.add(legacyWord);
        }
        String word = fungibility.oneOf(field, allowed);
        if (word == null) {
            return null;
        }
        return word.equals(legacyWord) ? FungibilityPolicy.MayStopSearch : FungibilityPolicy.valueOf(word);
    }

    private static Preemption preemption(FieldCursor preemption) {
        if (preemption == null) {
            return null;
        }
        preemption.ignoreWithWarning("reclaimOutOfCohort", "not a Kueue field (Kueue's preemption fields are"
                + " withinClusterQueue, reclaimWithinCohort and borrowWithinCohort)", "ignored");
        WithinClusterQueue within = preemption.oneOf("withinClusterQueue", WithinClusterQueue.class);
        ReclaimWithinCohort reclaim = preemption.oneOf("reclaimWithinCohort", ReclaimWithinCohort.class);
        BorrowWithinCohort borrow = null;
        FieldCursor borrowNode = preemption.object("borrowWithinCohort");
        if (borrowNode != null) {
            borrow = new BorrowWithinCohort(borrowNode.oneOf("policy", BorrowWithinCohortPolicy.class),
                    borrowNode.int32("maxPriorityThreshold"));
            if (borrow.policy() != BorrowWithinCohortPolicy.Never
                    && (reclaim == null || reclaim == ReclaimWithinCohort.Never)) {
                // Kueue's CEL rule: reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never.
                borrowNode.error("policy", borrow.policy() + " needs reclaimWithinCohort other than Never");
            }
            if (borrow.maxPriorityThreshold() != null && borrow.policy() != BorrowWithinCohortPolicy.LowerPriority) {
                borrowNode.error("maxPriorityThreshold", "may only be set when policy is LowerPriority; with policy "
                        + borrow.policy() + " no workload is preempted while borrowing");
            }
        }
        return new Preemption(within, reclaim, borrow);
    }

    private static LabelSelector labelSelector(FieldCursor selector) {
        if (selector == null) {
            return null;
        }
        Map<String, String> matchLabels = KubernetesFields.labels(selector, "matchLabels");
        List<LabelSelector.Requirement> requirements = new ArrayList<>();
        for (FieldCursor expression : selector.objects("matchExpressions")) {
            String key = expression.requiredName("key", KubernetesNames::qualifiedNameProblem);
            String operator = expression.requiredOneOf("operator", SELECTOR_OPERATORS);
            List<String> values = expression.strings("values");
            boolean needsValues = "In".equals(operator) || "NotIn".equals(operator);
            if (needsValues && values.isEmpty()) {
                expression.error("values", "must be non-empty when operator is " + operator);
            } else if (operator != null && !needsValues && !values.isEmpty()) {
                expression.error("values", "must be empty when operator is " + operator);
            }
            requirements.add(new LabelSelector.Requirement(key, operator, values));
        }
        return new LabelSelector(matchLabels, requirements);
    }

    private static LocalQueueManifest localQueue(String namespace, String name, FieldCursor spec) {
        String clusterQueue = spec.requiredName("clusterQueue", KubernetesNames::subdomainProblem);
        return new LocalQueueManifest(namespace, name, clusterQueue, spec.oneOf("stopPolicy", StopPolicy.class),
                QuotaDecoder.fairSharing(spec));
    }

    private static WorkloadPriorityClassManifest workloadPriorityClass(String name, FieldCursor root) {
        Integer value = root.require("value") ? root.int32("value") : null;
        return new WorkloadPriorityClassManifest(name, value == null ? 0 : value, root.string("description"));
    }

    private static PriorityClassManifest priorityClass(String name, FieldCursor root) {
        Integer value = root.require("value") ? root.int32("value") : null;
        if (value != null && value > HIGHEST_USER_PRIORITY) {
            root.error("value", value + " is above " + HIGHEST_USER_PRIORITY
                    + "; higher values are reserved for Kubernetes system priority classes");
        }
        if (name != null && name.startsWith("system-")) {
            root.error("metadata.name", "'" + name + "': the prefix 'system-' is reserved for Kubernetes system"
                    + " priority classes");
        }
        Boolean globalDefault = root.bool("globalDefault");
        if (Boolean.TRUE.equals(globalDefault)) {
            root.findings().warn(root.child("globalDefault"), "true is recorded but not acted on",
                    "a workload without a priority class gets priority 0, as on a cluster without a default class");
        }
        return new PriorityClassManifest(name, value == null ? 0 : value, Boolean.TRUE.equals(globalDefault),
                root.string("description"), root.oneOf("preemptionPolicy", PREEMPTION_POLICIES));
    }

    /**
     * Only the labels matter here. As the API server does, the name label is set to the name, whatever the
     * document says.
     */
    private static NamespaceManifest namespace(ObjectMeta metadata, FieldCursor root) {
        root.ignoreWithWarning("spec", "a Namespace's spec holds only finalizers, which a cluster runs when it"
                + " deletes the namespace", "ignored");
        String nameLabel = metadata.labels().get(NamespaceManifest.NAME_LABEL);
        if (nameLabel != null && metadata.name() != null && !nameLabel.equals(metadata.name())) {
            root.findings().warn("metadata.labels." + NamespaceManifest.NAME_LABEL, "'" + nameLabel + "' differs from"
                    + " the name; Kubernetes sets this label to the namespace's name", "set to '" + metadata.name() + "'");
        }
        String priorityOnly = metadata.labels().get(NamespaceManifest.PRIORITY_ONLY_LABEL);
        if (priorityOnly != null && !priorityOnly.equals(NamespaceManifest.PRIORITY_ONLY_ALLOWED)) {
            root.findings().error("metadata.labels." + NamespaceManifest.PRIORITY_ONLY_LABEL, "'" + priorityOnly + "' is not a"
                    + " value of this label: '" + NamespaceManifest.PRIORITY_ONLY_ALLOWED + "' lets the namespace's"
                    + " workloads without a queue name run in priority-only mode; remove the label to refuse them");
        }
        return new NamespaceManifest(metadata.name(), metadata.labels());
    }

    /**
     * A team's namespaces (DNS labels, each once), members (user names, each once, with a role) and, when
     * given, the priority classes its workloads may name (DNS subdomains, each once; absent: any).
     * That a namespace belongs to no other team is checked where teams are stored.
     */
    private static TeamManifest team(String name, FieldCursor spec) {
        List<String> namespaces = spec.strings("namespaces");
        if (namespaces.size() > MAX_TEAM_ENTRIES) {
            spec.error("namespaces", "has " + namespaces.size() + " items; at most " + MAX_TEAM_ENTRIES + " are allowed");
        }
        Set<String> seenNamespaces = new HashSet<>();
        for (int i = 0; i < namespaces.size(); i++) {
            String namespace = namespaces.get(i);
            String path = FieldCursor.index("namespaces", i);
            KubernetesNames.labelProblem(namespace).ifPresent(problem -> spec.error(path, problem));
            if (!seenNamespaces.add(namespace)) {
                spec.error(path, "namespace '" + namespace + "' is listed twice");
            }
        }
        List<TeamManifest.Member> members = new ArrayList<>();
        Set<String> seenUsers = new HashSet<>();
        for (FieldCursor member : atMost(spec, "members", MAX_TEAM_ENTRIES)) {
            String user = member.requiredName("user", UserNames::problem);
            String role = member.requiredOneOf("role", TEAM_ROLES);
            if (user != null && !seenUsers.add(user)) {
                member.error("user", "user '" + user + "' is listed twice; a member has one role in a team");
            }
            members.add(new TeamManifest.Member(user, role == null ? null : TeamRole.valueOf(role)));
        }
        return new TeamManifest(name, namespaces, members, allowedPriorityClasses(spec));
    }

    private static List<String> allowedPriorityClasses(FieldCursor spec) {
        if (!spec.has("allowedPriorityClasses")) {
            spec.skip("allowedPriorityClasses");
            return null;
        }
        List<String> classes = spec.strings("allowedPriorityClasses");
        if (classes.size() > MAX_TEAM_ENTRIES) {
            spec.error("allowedPriorityClasses", "has " + classes.size() + " items; at most " + MAX_TEAM_ENTRIES
                    + " are allowed");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < classes.size(); i++) {
            String path = FieldCursor.index("allowedPriorityClasses", i);
            KubernetesNames.subdomainProblem(classes.get(i)).ifPresent(problem -> spec.error(path, problem));
            if (!seen.add(classes.get(i))) {
                spec.error(path, "priority class '" + classes.get(i) + "' is listed twice");
            }
        }
        return classes;
    }

    private static List<FieldCursor> atMost(FieldCursor node, String field, int max) {
        List<FieldCursor> items = node.objects(field);
        if (items.size() > max) {
            node.error(field, "has " + items.size() + " items; at most " + max + " are allowed");
        }
        return items;
    }

    /** A cohort name; Kueue reads an empty one as none. */
    private static String reference(FieldCursor spec, String field) {
        String name = spec.string(field);
        if (name == null || name.isEmpty()) {
            return null;
        }
        KubernetesNames.subdomainProblem(name).ifPresent(problem -> spec.error(field, problem));
        return name;
    }
}
