package dev.platform.scheduler.kubernetes.registry;

import dev.platform.api.manifest.ClusterQueueManifest.AdmissionMode;
import dev.platform.api.manifest.ClusterQueueManifest.BorrowWithinCohortPolicy;
import dev.platform.api.manifest.ClusterQueueManifest.FungibilityPolicy;
import dev.platform.api.manifest.ClusterQueueManifest.FungibilityPreference;
import dev.platform.api.manifest.ClusterQueueManifest.QueueingStrategy;
import dev.platform.api.manifest.ClusterQueueManifest.ReclaimWithinCohort;
import dev.platform.api.manifest.ClusterQueueManifest.StopPolicy;
import dev.platform.api.manifest.ClusterQueueManifest.WithinClusterQueue;
import dev.platform.api.manifest.ProvisioningRequestConfigManifest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.platform.scheduler.kubernetes.registry.Schemas.array;
import static dev.platform.scheduler.kubernetes.registry.Schemas.bool;
import static dev.platform.scheduler.kubernetes.registry.Schemas.conditions;
import static dev.platform.scheduler.kubernetes.registry.Schemas.dateTime;
import static dev.platform.scheduler.kubernetes.registry.Schemas.fields;
import static dev.platform.scheduler.kubernetes.registry.Schemas.int64;
import static dev.platform.scheduler.kubernetes.registry.Schemas.integer;
import static dev.platform.scheduler.kubernetes.registry.Schemas.kind;
import static dev.platform.scheduler.kubernetes.registry.Schemas.labelSelector;
import static dev.platform.scheduler.kubernetes.registry.Schemas.map;
import static dev.platform.scheduler.kubernetes.registry.Schemas.object;
import static dev.platform.scheduler.kubernetes.registry.Schemas.objectMeta;
import static dev.platform.scheduler.kubernetes.registry.Schemas.oneOf;
import static dev.platform.scheduler.kubernetes.registry.Schemas.open;
import static dev.platform.scheduler.kubernetes.registry.Schemas.quantity;
import static dev.platform.scheduler.kubernetes.registry.Schemas.resourceList;
import static dev.platform.scheduler.kubernetes.registry.Schemas.string;
import static dev.platform.scheduler.kubernetes.registry.Schemas.stringMap;
import static dev.platform.scheduler.kubernetes.registry.Schemas.strings;
import static dev.platform.scheduler.kubernetes.registry.Schemas.toleration;

/**
 * The schemas of Kueue's kinds (kueue.x-k8s.io v1beta2 and v1beta1), field for field as Kueue's CRDs define them,
 * explained for {@code kubectl explain}. The two versions differ where Kueue's do: v1beta1 names a ClusterQueue's
 * cohort {@code spec.cohort} and v1beta2 {@code spec.cohortName}; v1beta1 lists admission checks by name and still
 * spells flavor fungibility's MayStopSearch as Borrow or Preempt; a v1beta1 Workload names its priority class with
 * {@code priorityClassName} and {@code priorityClassSource}, a v1beta2 one with {@code priorityClassRef}. The enums
 * are those the platform decodes the fields into, so the schema and the decoder cannot disagree.
 */
public final class KueueSchemas {

    private static final String V1BETA1 = "v1beta1";

    private KueueSchemas() {
    }

    public static Map<String, Object> clusterQueue(String version) {
        boolean v1beta1 = V1BETA1.equals(version);
        return kind("ClusterQueue is the Schema for the clusterQueue API: the quota of each flavor and resource that"
                + " its workloads may use, how they are ordered, and whom they may preempt.", fields(
                "spec", clusterQueueSpec(v1beta1),
                "status", clusterQueueStatus()));
    }

    private static Map<String, Object> clusterQueueSpec(boolean v1beta1) {
        Map<String, Object> fields = fields(
                "resourceGroups", resourceGroups("ClusterQueue"),
                v1beta1 ? "cohort" : "cohortName", string("The cohort this ClusterQueue belongs to. The"
                        + " ClusterQueues of a cohort lend one another the quota they do not use, for the [flavor,"
                        + " resource] pairs they list. Empty: the ClusterQueue neither borrows nor lends. A cohort"
                        + " exists by being named; a Cohort object of that name adds quota and a parent."),
                "queueingStrategy", oneOf("How the workloads of this ClusterQueue's queues are ordered, within a"
                        + " priority by creation time. StrictFIFO: the oldest workload that cannot be admitted"
                        + " blocks the newer ones, even those that would fit. BestEffortFIFO (the default): a newer"
                        + " workload that fits is admitted past an older one that does not.", QueueingStrategy.class),
                "namespaceSelector", labelSelector("Which namespaces may submit workloads to this ClusterQueue."
                        + " Unset selects no namespace; an empty selector {} selects every namespace."),
                "flavorFungibility", flavorFungibility(v1beta1),
                "preemption", preemption(),
                "admissionChecksStrategy", admissionChecksStrategy(),
                "stopPolicy", oneOf("Whether the ClusterQueue is stopped. Any value but None makes it inactive: no"
                        + " new quota is reserved. None (the default): workloads are admitted. Hold: admitted"
                        + " workloads run to completion, reservations not yet admitted are released. HoldAndDrain:"
                        + " admitted workloads are evicted too.", StopPolicy.class),
                "fairSharing", fairSharing("ClusterQueue"),
                "admissionScope", object("Whether the ClusterQueue orders its workloads by Admission Fair Sharing,"
                        + " the past usage of their LocalQueues.", fields(
                        "admissionMode", oneOf("UsageBasedAdmissionFairSharing: a workload of a LocalQueue that has"
                                + " used less is admitted first. NoAdmissionFairSharing: the queueing strategy alone"
                                + " orders workloads.", AdmissionMode.class)),
                        "admissionMode"));
        if (v1beta1) {
            fields.put("admissionChecks", strings("The names of the AdmissionChecks every workload of this"
                    + " ClusterQueue must pass, for every flavor, before it is admitted. Cannot be set together"
                    + " with admissionChecksStrategy; v1beta2 keeps only admissionChecksStrategy."));
        }
        return object("ClusterQueueSpec defines the desired state of ClusterQueue.", fields);
    }

    static Map<String, Object> resourceGroups(String owner) {
        String ownerWord = owner.equals("Cohort") ? "the Cohort" : "the ClusterQueue";
        return array("Groups of resources, each with the flavors that provide quota for them. A resource and a"
                + " flavor can be part of one group only. Up to 16 groups, with at most 256 flavors across them.",
                object("A group of resources covered by the same flavors.", fields(
                        "coveredResources", strings("The resources the flavors of this group provide quota for"
                                + " (cpu, memory, google.com/tpu...): 1 to 64. Kueue requires it; when it is"
                                + " missing, the platform takes the resources of the group's first flavor and"
                                + " warns."),
                        "flavors", array("The flavors providing the group's resources, in order of preference:"
                                + " different hardware, or different pricing (on-demand, spot). Each lists every"
                                + " covered resource, in the same order. 1 to 64.", object("The quota of one"
                                + " flavor for each covered resource.", fields(
                                "name", string("The name of a ResourceFlavor. While no ResourceFlavor of this"
                                        + " name exists, the ClusterQueue is inactive."),
                                "resources", array("The quota of each covered resource in this flavor: 1 to 64.",
                                        resourceQuota(ownerWord))),
                                "name", "resources"))),
                        "flavors"));
    }

    private static Map<String, Object> resourceQuota(String ownerWord) {
        return object("The quota of one resource in one flavor.", fields(
                "name", string("The name of the resource."),
                "nominalQuota", quantity("The quantity of this resource that the workloads admitted through "
                        + ownerWord + " may use at once; not negative. It should be what the cluster can give"
                        + " workloads (after system components), counting what an autoscaler can add. In a cohort,"
                        + " the nominal quotas of its members add up to what the cohort can allocate."),
                "borrowingLimit", quantity("How much of this resource " + ownerWord + " may borrow from the unused"
                        + " quota of its cohort, on top of its nominal quota. Unset: no limit. Must be unset"
                        + " outside a cohort."),
                "lendingLimit", quantity("How much of its unused nominal quota " + ownerWord + " may lend to the"
                        + " rest of its cohort; nominalQuota minus lendingLimit stays reserved for its own"
                        + " workloads. Unset: all of it can be lent. Must be unset outside a cohort.")),
                "name", "nominalQuota");
    }

    private static Map<String, Object> flavorFungibility(boolean v1beta1) {
        String legacy = v1beta1 ? " v1beta1 also accepts the older word for MayStopSearch, %s." : "";
        return object("Whether a workload tries the next flavor before borrowing or preempting in the flavor being"
                + " considered.", fields(
                "whenCanBorrow", oneOf("When the workload fits only by borrowing in this flavor: MayStopSearch"
                        + " (the default) takes this flavor, TryNextFlavor looks at the next flavor first."
                        + legacy.formatted("Borrow"), fungibilityPolicies(v1beta1, "Borrow")),
                "whenCanPreempt", oneOf("When the workload fits only by preempting in this flavor: MayStopSearch"
                        + " takes this flavor, TryNextFlavor (the default) looks at the next flavor first."
                        + legacy.formatted("Preempt"), fungibilityPolicies(v1beta1, "Preempt")),
                "preference", oneOf("Which flavor to choose when every candidate needs borrowing, preemption or"
                        + " both: BorrowingOverPreemption (the default) prefers borrowing, PreemptionOverBorrowing"
                        + " prefers preemption. Only with whenCanBorrow and whenCanPreempt both TryNextFlavor.",
                        FungibilityPreference.class)));
    }

    /** v1beta1 still spells MayStopSearch as Borrow (whenCanBorrow) or Preempt (whenCanPreempt). */
    private static List<String> fungibilityPolicies(boolean v1beta1, String legacyWord) {
        List<String> policies = new ArrayList<>(Schemas.names(FungibilityPolicy.class));
        if (v1beta1) {
            policies.add(legacyWord);
        }
        return policies;
    }

    private static Map<String, Object> preemption() {
        return object("ClusterQueuePreemption: when a pending workload of this ClusterQueue may preempt admitted"
                + " workloads, of this ClusterQueue or of others in its cohort, to fit. The fewest workloads are"
                + " chosen, those of lower priority first.", fields(
                "withinClusterQueue", oneOf("Whether a pending workload that does not fit in the nominal quota of"
                        + " its ClusterQueue may preempt workloads of the same ClusterQueue. Never (the default):"
                        + " no. LowerPriority: those of lower priority. LowerOrNewerEqualPriority: those of lower"
                        + " priority, and those of equal priority created after it.", WithinClusterQueue.class),
                "reclaimWithinCohort", oneOf("Whether a pending workload may preempt workloads of other"
                        + " ClusterQueues of the cohort that use more than their nominal quota, to take back quota"
                        + " that is its ClusterQueue's own. Never (the default): no. LowerPriority: those of lower"
                        + " priority. Any: any of them, whatever their priority.", ReclaimWithinCohort.class),
                "borrowWithinCohort", object("Whether a pending workload that needs to borrow may preempt workloads"
                        + " of other ClusterQueues of the cohort. Not with fair sharing.", fields(
                        "policy", oneOf("Never (the default): a borrowing workload preempts nobody in the cohort."
                                + " LowerPriority: it may preempt workloads of lower priority in other"
                                + " ClusterQueues of the cohort. Anything but Never needs reclaimWithinCohort other"
                                + " than Never.", BorrowWithinCohortPolicy.class),
                        "maxPriorityThreshold", integer("Only workloads of this priority or lower may be preempted"
                                + " by a borrowing workload; unset: any workload the policy allows. Only with"
                                + " policy LowerPriority."))),
                "reclaimOutOfCohort", object("Not a Kueue field: accepted so that the seed's manifests apply"
                        + " unchanged, and without effect (the platform warns that it ignores it).", fields(
                        "enable", bool("Accepted, without effect."),
                        "reclaimMoreThanNominalQuota", bool("Accepted, without effect.")))));
    }

    private static Map<String, Object> admissionChecksStrategy() {
        return object("Which AdmissionChecks the workloads of this ClusterQueue must pass before they are admitted,"
                + " and for which flavors.", fields(
                "admissionChecks", array("One rule per AdmissionCheck: 1 to 64.", object("The rule of one"
                        + " AdmissionCheck.", fields(
                        "name", string("The name of the AdmissionCheck."),
                        "onFlavors", strings("The ResourceFlavors this check runs for; empty: every workload of"
                                + " the ClusterQueue, whatever its flavors.")),
                        "name"))),
                "admissionChecks");
    }

    private static Map<String, Object> fairSharing(String owner) {
        return object("How this " + owner + " takes part in fair sharing; relevant only when fair sharing is"
                + " enabled.", fields(
                "weight", quantity("The share of unused quota this " + owner + " gets, relative to the others of"
                        + " its cohort: a higher weight gets more, 0 makes its borrowing the first preempted."
                        + " Defaults to 1.")));
    }

    private static Map<String, Object> clusterQueueStatus() {
        return object("ClusterQueueStatus defines the observed state of ClusterQueue.", fields(
                "conditions", conditions("The latest observations of the ClusterQueue's state: Active says"
                        + " whether it admits workloads and lends its quota (reason Ready, Stopped,"
                        + " FlavorNotFound...). At most 16."),
                "flavorsReservation", flavorUsage("The quota reserved by the workloads of this ClusterQueue, by"
                        + " flavor and resource."),
                "flavorsUsage", flavorUsage("The quota used by the workloads admitted through this"
                        + " ClusterQueue, by flavor and resource."),
                "pendingWorkloads", integer("How many workloads wait to be admitted to this ClusterQueue."),
                "reservingWorkloads", integer("How many workloads reserve quota in this ClusterQueue."),
                "admittedWorkloads", integer("How many workloads are admitted to this ClusterQueue and not"
                        + " finished."),
                "fairSharing", fairSharingStatus()));
    }

    private static Map<String, Object> flavorUsage(String description) {
        return array(description, object("The usage of one flavor.", fields(
                "name", string("The name of the flavor."),
                "resources", array("The usage of each resource of the flavor.", object("The usage of one"
                        + " resource.", fields(
                        "name", string("The name of the resource."),
                        "total", quantity("All the quota used, borrowed quota included."),
                        "borrowed", quantity("The part of the quota used beyond the nominal quota, borrowed from"
                                + " the cohort."))))),
                "name", "resources"));
    }

    private static Map<String, Object> fairSharingStatus() {
        return object("The state of fair sharing, recorded only when it is enabled.", fields(
                "weightedShare", int64("How much of the quota borrowed from the cohort this object uses, relative"
                        + " to its weight (0 when it borrows nothing); the higher, the sooner its workloads are"
                        + " preempted for others."),
                "admissionFairSharingStatus", admissionFairSharingStatus()));
    }

    private static Map<String, Object> admissionFairSharingStatus() {
        return object("The usage Admission Fair Sharing orders workloads by.", fields(
                "consumedResources", resourceList("The resources the queue's workloads used, aged by the"
                        + " configured half-life."),
                "lastUpdate", dateTime("When consumedResources was last updated.")));
    }

    public static Map<String, Object> localQueue(String version) {
        return kind("LocalQueue is the Schema for the localQueues API: the queue of a namespace that its workloads"
                + " name (label kueue.x-k8s.io/queue-name), backed by a ClusterQueue.", fields(
                "spec", object("LocalQueueSpec defines the desired state of LocalQueue.", fields(
                        "clusterQueue", string("The ClusterQueue that admits this queue's workloads."),
                        "stopPolicy", oneOf("Whether the LocalQueue is stopped. None (the default): its"
                                + " workloads are admitted. Hold: admitted workloads run to completion, pending"
                                + " ones wait. HoldAndDrain: admitted workloads are evicted too.", StopPolicy.class),
                        "fairSharing", fairSharing("LocalQueue")),
                        "clusterQueue"),
                "status", object("LocalQueueStatus defines the observed state of LocalQueue.", fields(
                        "conditions", conditions("The latest observations of the LocalQueue's state: Active says"
                                + " whether it can take new workloads."),
                        "pendingWorkloads", integer("How many of its workloads wait to be admitted."),
                        "reservingWorkloads", integer("How many of its workloads reserve quota in the"
                                + " ClusterQueue."),
                        "admittedWorkloads", integer("How many of its workloads are admitted and not finished."),
                        "flavorsReservation", flavorUsage("The quota its workloads reserve, by flavor and"
                                + " resource."),
                        "flavorsUsage", flavorUsage("The quota its admitted workloads use, by flavor and"
                                + " resource."),
                        "fairSharing", fairSharingStatus()))));
    }

    public static Map<String, Object> admissionCheck(String version) {
        return kind("AdmissionCheck is the Schema for the admissionchecks API: a gate a workload must pass, after its"
                + " quota is reserved and before it is admitted, kept by a controller.", fields(
                "spec", object("AdmissionCheckSpec defines the desired state of AdmissionCheck.", fields(
                        "controllerName", string("The controller that decides the check:"
                                + " kueue.x-k8s.io/provisioning-request for ProvisioningRequests (the platform's"
                                + " agents create them), or an external controller's name (it answers through the"
                                + " platform's API)."),
                        "retryDelayMinutes", int64("Deprecated in Kueue and unused: ignored with a warning."),
                        "parameters", object("The object holding the check's parameters.", fields(
                                "apiGroup", string("The API group of the parameters object."),
                                "kind", string("The kind of the parameters object; a ProvisioningRequestConfig for"
                                        + " the provisioning controller."),
                                "name", string("The name of the parameters object.")),
                                "kind", "name")),
                        "controllerName"),
                "status", object("AdmissionCheckStatus defines the observed state of AdmissionCheck.", fields(
                        "conditions", conditions("The latest observations of the check: Active says whether its"
                                + " controller handles it.")))));
    }

    public static Map<String, Object> provisioningRequestConfig(String version) {
        return kind("ProvisioningRequestConfig is the Schema for the provisioningrequestconfig API: the class and"
                + " parameters of the ProvisioningRequests a provisioning admission check creates.", fields(
                "spec", object("ProvisioningRequestConfigSpec defines the desired state of"
                        + " ProvisioningRequestConfig.", fields(
                        "provisioningClassName", string("The ProvisioningRequest class to ask for capacity with"
                                + " (queued-provisioning.gke.io, check-capacity.autoscaling.x-k8s.io...)."),
                        "parameters", stringMap("Parameters passed to the ProvisioningRequests, at most 100."),
                        "managedResources", strings("The resources the provisioning is for; a workload asking for"
                                + " none of them passes the check without a ProvisioningRequest. Empty: all."),
                        "retryStrategy", object("How a failed or expired ProvisioningRequest is retried.", fields(
                                "backoffLimitCount", integer("How many times it is retried before the workload is"
                                        + " deactivated."),
                                "backoffBaseSeconds", integer("The first wait before a retry, doubled each time."),
                                "backoffMaxSeconds", integer("The longest wait before a retry."))),
                        "podSetUpdates", object("Node selectors taken from the ProvisioningRequest's class details:"
                                + " accepted, not applied (the platform warns).", fields(
                                "nodeSelector", array("Node selectors to add to the pod sets.", object("A node"
                                        + " selector from a class detail.", fields(
                                        "key", string("The node label key."),
                                        "valueFromProvisioningClassDetail", string("The class detail holding the"
                                                + " value.")),
                                        "key", "valueFromProvisioningClassDetail")))),
                        "podSetMergePolicy", oneOf("How pod sets are merged into the ProvisioningRequest's pod"
                                + " sets: IdenticalPodTemplates or IdenticalWorkloadSchedulingRequirements; unset:"
                                + " none merged.", ProvisioningRequestConfigManifest.PodSetMergePolicy.class)),
                        "provisioningClassName")));
    }

    /** visibility.kueue.x-k8s.io's ClusterQueue or LocalQueue: a queue as its pendingworkloads subresource reads. */
    public static Map<String, Object> visibilityQueue(String kind) {
        return kind(kind + " of Kueue's visibility API: its pendingworkloads subresource lists the workloads"
                + " waiting in the queue, in the order they would be admitted, with their positions (offset and"
                + " limit page through them).", fields(
                "pendingWorkloadsSummary", object("PendingWorkloadsSummary: the workloads waiting in the queue,"
                        + " as the pendingworkloads subresource answers.", fields(
                        "items", array("The pending workloads, first to be admitted first.", object("PendingWorkload:"
                                + " a workload waiting in the queue.", fields(
                                "metadata", objectMeta("The workload's name, namespace, creation time and owner."),
                                "priority", integer("The workload's priority."),
                                "localQueueName", string("The LocalQueue the workload waits in."),
                                "positionInClusterQueue", integer("Its place in its ClusterQueue, 0 first."),
                                "positionInLocalQueue", integer("Its place in its LocalQueue, 0 first."))))))));
    }

    public static Map<String, Object> resourceFlavor(String version) {
        return kind("ResourceFlavor is the Schema for the resourceflavors API: one kind of capacity (a machine"
                + " type, a TPU slice shape, spot or on-demand) as the node labels, taints and tolerations of its"
                + " nodes.", fields(
                "spec", object("ResourceFlavorSpec defines the desired state of the ResourceFlavor.", fields(
                        "nodeLabels", stringMap("The labels of the nodes of this flavor, at most 8. A workload"
                                + " admitted to the flavor gets them as node selectors; a workload whose node"
                                + " selector or required node affinity contradicts them cannot use the flavor."),
                        "nodeTaints", array("The taints of the nodes of this flavor, at most 8: a workload"
                                + " without a matching toleration cannot use the flavor.", object("A taint of"
                                + " the flavor's nodes.", fields(
                                "key", string("The taint key."),
                                "value", string("The taint value."),
                                "effect", oneOf("What the taint does to pods that do not tolerate it.",
                                        List.of("NoSchedule", "PreferNoSchedule", "NoExecute")),
                                "timeAdded", dateTime("When a NoExecute taint was added; accepted and not"
                                        + " used.")),
                                "key", "effect")),
                        "tolerations", array("Tolerations added to the pods of the workloads admitted to this"
                                + " flavor, at most 8.", toleration("A toleration added to admitted pods.")),
                        "topologyName", string("The Topology of the flavor's nodes, for Topology-Aware"
                                + " Scheduling; needs nodeLabels.")))));
    }

    public static Map<String, Object> cohort(String version) {
        return kind("Cohort is the Schema for the cohorts API: ClusterQueues that borrow from and lend to one"
                + " another, with quota of its own and a parent cohort.", fields(
                "spec", object("CohortSpec defines the desired state of Cohort.", fields(
                        "parentName", string("The cohort this cohort belongs to, which it borrows from and lends"
                                + " to; empty: a root cohort. Cycles are not allowed."),
                        "resourceGroups", resourceGroups("Cohort"),
                        "fairSharing", fairSharing("Cohort"))),
                "status", object("CohortStatus defines the observed state of Cohort.", fields(
                        "conditions", conditions("The latest observations of the cohort's state."),
                        "fairSharing", fairSharingStatus(),
                        "clusterQueues", strings("Not a Kueue field: the ClusterQueues that name this cohort,"
                                + " as the platform reports them.")))));
    }

    public static Map<String, Object> workloadPriorityClass(String version) {
        return kind("WorkloadPriorityClass is the Schema for the workloadPriorityClass API: a priority for"
                + " workloads that is not that of their pods, so that queueing order can differ from pod"
                + " preemption on the nodes.", fields(
                "value", integer("The priority of the workloads of this class: the higher, the earlier they are"
                        + " admitted and the later they are preempted."),
                "description", string("An arbitrary string, usually when this class should be used.")));
    }

    public static Map<String, Object> workload(String version) {
        boolean v1beta1 = V1BETA1.equals(version);
        return kind("Workload is the Schema for the workloads API: the unit of admission, one per JobSet or Job,"
                + " with the quota it reserved and why it waits.", fields(
                "spec", workloadSpec(v1beta1),
                "status", workloadStatus()));
    }

    private static Map<String, Object> workloadSpec(boolean v1beta1) {
        Map<String, Object> fields = fields(
                "podSets", array("The sets of identical pods of the workload, each a pod template and a count: 1"
                        + " to 8, and they cannot change.", object("A set of identical pods.", fields(
                        "name", string("The name of the pod set; main by default."),
                        "template", object("The template of the pods. Kueue reads their resource requests, node"
                                + " selectors, affinities and tolerations to choose flavors.", fields(
                                "metadata", objectMeta("The pods' labels and annotations."),
                                "spec", open("The pods' spec, as a Pod's spec (containers, nodeSelector,"
                                        + " tolerations...); the platform passes it through."))),
                        "count", integer("How many pods of this set run; 1 by default."),
                        "minCount", integer("The fewest pods the set may be admitted with, for workloads that"
                                + " allow partial admission; one pod set at most may set it."),
                        "topologyRequest", object("How the set's pods should be placed in the topology of"
                                + " their flavor's nodes.", fields(
                                "required", string("The topology level all the pods must be placed within."),
                                "preferred", string("The topology level the pods are best placed within."),
                                "unconstrained", bool("Pods may be placed anywhere in the available capacity."),
                                "podIndexLabel", string("The label holding each pod's index."),
                                "subGroupIndexLabel", string("The label holding the index of each replicated job"
                                        + " within the set."),
                                "subGroupCount", integer("How many replicated jobs the set holds."),
                                "podSetGroupName", string("Pod sets of one group get the same flavor."),
                                "podSetSliceRequiredTopology", string("The topology level each slice of the set"
                                        + " must be placed within."),
                                "podSetSliceSize", integer("How many pods make a slice.")))),
                        "template")),
                "queueName", string("The LocalQueue of the workload's namespace it is queued in; cannot change"
                        + " while it is admitted."));
        if (v1beta1) {
            fields.put("priorityClassName", string("The priority class the workload's priority comes from; which"
                    + " kind of class it is, priorityClassSource says."));
            fields.put("priorityClassSource", oneOf("The kind of the class priorityClassName names: a"
                    + " WorkloadPriorityClass or a pod PriorityClass (empty: a pod PriorityClass).",
                    List.of("", "kueue.x-k8s.io/workloadpriorityclass", "scheduling.k8s.io/priorityclass")));
        } else {
            fields.put("priorityClassRef", object("The priority class the workload's priority comes from.", fields(
                    "group", oneOf("kueue.x-k8s.io for a WorkloadPriorityClass, scheduling.k8s.io for a pod"
                            + " PriorityClass.", List.of("kueue.x-k8s.io", "scheduling.k8s.io")),
                    "kind", oneOf("WorkloadPriorityClass or PriorityClass, matching the group.",
                            List.of("WorkloadPriorityClass", "PriorityClass")),
                    "name", string("The name of the class.")),
                    "group", "kind", "name"));
        }
        fields.put("priority", integer("The workload's priority in its ClusterQueue, from its priority class: the"
                + " higher, the earlier it is admitted and the later it is preempted."));
        fields.put("active", bool("Whether the workload may be admitted; true by default. Setting it to false"
                + " evicts it if admitted and keeps it out of its queue until it is true again."));
        fields.put("maximumExecutionTimeSeconds", integer("How long, in seconds, the workload may stay admitted"
                + " before it is deactivated; unset: no limit."));
        return object("WorkloadSpec defines the desired state of Workload.", fields);
    }

    private static Map<String, Object> workloadStatus() {
        return object("WorkloadStatus defines the observed state of Workload: Kueue's fields, then the platform's"
                + " own (pendingReason, positionInClusterQueue, positionInLocalQueue, forecast), which say where a"
                + " pending workload stands and when it is expected to be admitted.", fields(
                "conditions", conditions("The latest observations of the workload: QuotaReserved, Admitted,"
                        + " Evicted, Preempted, Requeued, PodsReady, Finished. At most 16."),
                "admission", object("How the workload was admitted, once it reserves quota in a ClusterQueue."
                        + " Its fields do not change while it is set.", fields(
                        "clusterQueue", string("The ClusterQueue that admitted the workload."),
                        "podSetAssignments", array("What each of the spec's pod sets was given.", object("The"
                                + " admission of one pod set.", fields(
                                "name", string("The name of the pod set, as in spec.podSets."),
                                "flavors", map("The flavor given for each resource.", Map.of("type", "string")),
                                "resourceUsage", resourceList("The resources all the pods of the set need, by"
                                        + " resource."),
                                "count", integer("How many pods were admitted."))))),
                        "clusterQueue", "podSetAssignments"),
                "requeueState", object("The workload's requeueing with backoff, after a PodsReady timeout or a"
                        + " failed start.", fields(
                        "count", integer("How many times the workload was requeued; reset when it is"
                                + " reactivated."),
                        "requeueAt", dateTime("When the workload goes back to its queue."))),
                "reclaimablePods", array("Pods of each set whose quota is no longer needed (they finished).",
                        object("The reclaimable pods of one set.", fields(
                                "name", string("The name of the pod set."),
                                "count", integer("How many of its pods no longer need their quota.")),
                                "name", "count")),
                "admissionChecks", array("The admission checks the workload must pass, with their state.",
                        object("The state of one admission check.", fields(
                                "name", string("The name of the AdmissionCheck."),
                                "state", oneOf("Pending, Ready, Retry or Rejected.", List.of("Pending", "Ready",
                                        "Retry", "Rejected")),
                                "lastTransitionTime", dateTime("When the state last changed."),
                                "message", string("Why the check is in this state; may be empty."),
                                "podSetUpdates", array("Changes the check asks of the pod sets.", object("Changes"
                                        + " to one pod set.", fields(
                                        "name", string("The name of the pod set."),
                                        "labels", stringMap("Labels to add."),
                                        "annotations", stringMap("Annotations to add."),
                                        "nodeSelector", stringMap("Node selectors to add."),
                                        "tolerations", array("Tolerations to add.", toleration("A toleration to"
                                                + " add."))),
                                        "name"))),
                                "name", "state", "lastTransitionTime", "message")),
                "resourceRequests", array("The resources a workload that is not admitted asked for, when it was"
                        + " last considered.", object("The requests of one pod set.", fields(
                        "name", string("The name of the pod set."),
                        "resources", resourceList("The resources of all the pods of the set.")),
                        "name")),
                "accumulatedPastExecutionTimeSeconds", integer("The seconds the workload spent admitted in earlier"
                        + " admissions, before it was evicted."),
                "schedulingStats", object("Scheduling statistics.", fields(
                        "evictions", array("Evictions by reason and underlying cause.", object("The evictions of"
                                + " one reason.", fields(
                                "reason", string("Why the workload was evicted."),
                                "underlyingCause", string("A finer cause; may be empty."),
                                "count", integer("How many times.")),
                                "reason", "underlyingCause", "count")))),
                "pendingReason", object("Not a Kueue field: why the workload still waits after the last admission"
                        + " cycle.", fields(
                        "code", string("The reason in one word: WaitingForQuota, WaitingForPreemptedWorkloads,"
                                + " NoMatchingFlavor, ExceedsMaxQuota, QueueStopped, InadmissibleNamespace,"
                                + " LocalQueueNotFound, ClusterQueueInactive, Blocked, WaitingForNodePool,"
                                + " WaitingForMinimumRuntime, Deactivated..."),
                        "message", string("The reason in words: which resource, flavor and amount are missing,"
                                + " which queue is stopped..."))),
                "positionInClusterQueue", integer("Not a Kueue field: the workload's place among the pending"
                        + " workloads of its ClusterQueue, 0 first."),
                "positionInLocalQueue", integer("Not a Kueue field: the workload's place among the pending"
                        + " workloads of its LocalQueue, 0 first."),
                "forecast", object("Not a Kueue field: when the pending workload is expected to be admitted.",
                        fields(
                                "estimatedAdmissionAt", dateTime("The expected admission time."),
                                "p10", dateTime("The early end of the expected range (10th percentile)."),
                                "p90", dateTime("The late end of the expected range (90th percentile)."),
                                "message", string("What the forecast rests on, in words.")))));
    }
}
