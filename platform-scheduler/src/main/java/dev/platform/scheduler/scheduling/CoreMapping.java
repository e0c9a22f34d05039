package dev.platform.scheduler.scheduling;

import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.CohortManifest;
import dev.platform.api.manifest.LabelSelector;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.api.manifest.NamespaceManifest;
import dev.platform.api.manifest.PreemptionAnnotations;
import dev.platform.api.manifest.Quantity;
import dev.platform.api.manifest.ResourceFlavorManifest;
import dev.platform.api.manifest.ResourceGroup;
import dev.platform.api.manifest.WorkloadManifest.PodSetSpec;
import dev.platform.scheduler.core.Quantities;
import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.AdmissionMode;
import dev.platform.scheduler.core.model.BorrowWithinCohortPolicy;
import dev.platform.scheduler.core.model.AdmissionCheckStrategy;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.CohortSpec;
import dev.platform.scheduler.core.model.FlavorFungibility;
import dev.platform.scheduler.core.model.FlavorQuotas;
import dev.platform.scheduler.core.model.FungibilityPolicy;
import dev.platform.scheduler.core.model.FungibilityPreference;
import dev.platform.scheduler.core.model.LabelRequirement;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.Namespace;
import dev.platform.scheduler.core.model.PodSet;
import dev.platform.scheduler.core.model.PodSetAssignment;
import dev.platform.scheduler.core.model.PreemptionOrder;
import dev.platform.scheduler.core.model.PreemptionPolicy;
import dev.platform.scheduler.core.model.QueueingStrategy;
import dev.platform.scheduler.core.model.ReclaimWithinCohortPolicy;
import dev.platform.scheduler.core.model.ResourceFlavor;
import dev.platform.scheduler.core.model.ResourceQuota;
import dev.platform.scheduler.core.model.StopPolicy;
import dev.platform.scheduler.core.model.Taint;
import dev.platform.scheduler.core.model.Toleration;
import dev.platform.scheduler.core.model.VictimProtection;
import dev.platform.scheduler.core.model.WithinClusterQueuePolicy;
import dev.platform.scheduler.core.model.Workload;
import dev.platform.scheduler.workload.StoredAdmission;
import dev.platform.scheduler.workload.WorkloadRow;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/** Translates between the API's exact model and the core's milli-unit records. */
public final class CoreMapping {

    private CoreMapping() {
    }

    static ResourceFlavor flavor(ResourceFlavorManifest f) {
        return new ResourceFlavor(f.name(), f.nodeLabels(),
                f.nodeTaints().stream().map(t -> new Taint(t.key(), t.value(), t.effect())).toList());
    }

    static CohortSpec cohort(CohortManifest c) {
        return new CohortSpec(c.name(), c.parentName(), groups(c.resourceGroups()), weight(c.fairSharing().weight()));
    }

    static ClusterQueueSpec clusterQueue(ClusterQueueManifest q) {
        ClusterQueueManifest.FlavorFungibility f = q.flavorFungibility();
        ClusterQueueManifest.Preemption p = q.preemption();
        return new ClusterQueueSpec(q.name(), q.cohort(), groups(q.resourceGroups()),
                QueueingStrategy.valueOf(q.queueingStrategy().name()),
                selector(q.namespaceSelector()),
                new FlavorFungibility(FungibilityPolicy.valueOf(f.whenCanBorrow().name()),
                        FungibilityPolicy.valueOf(f.whenCanPreempt().name()),
                        f.preference() == null ? null : FungibilityPreference.valueOf(f.preference().name())),
                new PreemptionPolicy(WithinClusterQueuePolicy.valueOf(p.withinClusterQueue().name()),
                        ReclaimWithinCohortPolicy.valueOf(p.reclaimWithinCohort().name()),
                        BorrowWithinCohortPolicy.valueOf(p.borrowWithinCohort().policy().name()),
                        p.borrowWithinCohort().maxPriorityThreshold()),
                weight(q.fairSharing().weight()),
                StopPolicy.valueOf(q.stopPolicy().name()),
                q.admissionScope() == null ? null : AdmissionMode.valueOf(q.admissionScope().admissionMode().name()),
                new VictimProtection(PreemptionAnnotations.minimumRuntime(q.annotations()),
                        PreemptionAnnotations.minimumRuntimeAppliesToHotswap(q.annotations())),
                PreemptionAnnotations.leastLostWork(q.annotations()) ? PreemptionOrder.LeastLostWork
                        : PreemptionOrder.MostRecentlyAdmitted,
                admissionChecks(q.admissionChecks()));
    }

    /** A ClusterQueue's checks; none: {@link AdmissionCheckStrategy#NONE}, today's one-phase admission. */
    static AdmissionCheckStrategy admissionChecks(List<ClusterQueueManifest.AdmissionCheckRule> rules) {
        return rules.isEmpty() ? AdmissionCheckStrategy.NONE : new AdmissionCheckStrategy(rules.stream()
                .map(r -> new AdmissionCheckStrategy.Rule(r.name(), java.util.Set.copyOf(r.onFlavors()))).toList());
    }

    static LocalQueueSpec localQueue(LocalQueueManifest l) {
        return new LocalQueueSpec(l.namespace(), l.name(), l.clusterQueue(), StopPolicy.valueOf(l.stopPolicy().name()),
                weight(l.fairSharing().weight()));
    }

    static Namespace namespace(NamespaceManifest n) {
        return new Namespace(n.name(), n.labels());
    }

    public static Workload workload(WorkloadRow row) {
        return workload(row, CoreMapping::podSets);
    }

    /** The row in the core's terms, its pod sets mapped by {@code podSets} (which may share what it mapped). */
    static Workload workload(WorkloadRow row, Function<List<PodSetSpec>, List<PodSet>> podSets) {
        Integer maximum = row.maximumExecutionTimeSeconds();
        return new Workload(row.uid().toString(), row.namespace(), row.name(), row.queueName(), row.priority(),
                row.queueTimestamp(), podSets.apply(row.podSets()), row.priorityClassName(),
                maximum == null ? null : Duration.ofSeconds(maximum));
    }

    static List<PodSet> podSets(List<PodSetSpec> specs) {
        return specs.stream().map(CoreMapping::podSet).toList();
    }

    static PodSet podSet(PodSetSpec spec) {
        Map<String, Long> requests = new TreeMap<>();
        spec.requests().forEach((resource, quantity) -> requests.put(resource, quantity.milliValue()));
        return new PodSet(spec.name(), spec.count(), spec.minCount() == null ? spec.count() : spec.minCount(),
                requests, spec.nodeSelector(),
                spec.requiredNodeAffinity().stream().map(term -> term.stream().map(CoreMapping::requirement).toList())
                        .toList(),
                spec.tolerations().stream()
                        .map(t -> new Toleration(t.key(), t.operator(), t.value(), t.effect())).toList());
    }

    /** The core's admission as the status resource shows it (quantities as Kubernetes text). */
    static StoredAdmission admission(Admission admission, Map<String, List<String>> nodePools) {
        return new StoredAdmission(admission.clusterQueue(), admission.podSetAssignments().stream()
                .map(a -> new StoredAdmission.PodSetAssignment(a.name(), a.count(), new TreeMap<>(a.flavors()),
                        usageText(a.resourceUsage()), nodePools.getOrDefault(a.name(), List.of())))
                .toList());
    }

    /** The stored admission back in the core's terms, for restoring admitted workloads at start. */
    static Admission admission(StoredAdmission admission) {
        return new Admission(admission.clusterQueue(), admission.podSetAssignments().stream()
                .map(a -> {
                    Map<String, Long> usage = new LinkedHashMap<>();
                    a.resourceUsage().forEach((r, q) -> usage.put(r, Quantity.parse(q).milliValue()));
                    return new PodSetAssignment(a.name(), a.count(), a.flavors(), usage);
                })
                .toList());
    }

    private static Map<String, String> usageText(Map<String, Long> usage) {
        Map<String, String> text = new TreeMap<>();
        usage.forEach((r, milli) -> text.put(r, Quantities.format(milli)));
        return text;
    }

    private static List<dev.platform.scheduler.core.model.ResourceGroup> groups(List<ResourceGroup> groups) {
        return groups.stream().map(g -> new dev.platform.scheduler.core.model.ResourceGroup(g.coveredResources(),
                g.flavors().stream().map(f -> new FlavorQuotas(f.name(), f.resources().stream()
                        .map(r -> new ResourceQuota(r.name(), r.nominalQuota().milliValue(),
                                r.borrowingLimit() == null ? null : r.borrowingLimit().milliValue(),
                                r.lendingLimit() == null ? null : r.lendingLimit().milliValue()))
                        .toList())).toList())).toList();
    }

    private static dev.platform.scheduler.core.model.LabelSelector selector(LabelSelector s) {
        return new dev.platform.scheduler.core.model.LabelSelector(s.matchLabels(),
                s.matchExpressions().stream().map(CoreMapping::requirement).toList());
    }

    private static LabelRequirement requirement(LabelSelector.Requirement r) {
        return new LabelRequirement(r.key(), r.operator(), r.values());
    }

    private static double weight(Quantity weight) {
        return weight.value().doubleValue();
    }
}
