package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.FairSharing;
import dev.platform.api.manifest.Quantity;
import dev.platform.api.manifest.ResourceGroup;
import dev.platform.api.manifest.ResourceGroup.FlavorQuotas;
import dev.platform.api.manifest.ResourceGroup.ResourceQuota;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Quota sections shared by ClusterQueue and Cohort: {@code resourceGroups} and
 * {@code fairSharing}. Mirrors Kueue's CRD limits and {@code validateResourceGroups} /
 * {@code validateFairSharing} in pkg/webhooks.
 */
final class QuotaDecoder {

    static final int MAX_RESOURCE_GROUPS = 16;
    static final int MAX_PER_GROUP = 64;
    static final int MAX_TOTAL = 256;
    static final int MAX_FLAVOR_RESOURCES_PER_GROUP = 512;
    private static final Quantity SMALLEST_WEIGHT = Quantity.parse("1n");

    /**
     * Who owns the quota decides the limit rules: borrowing and lending need a cohort (for a
     * ClusterQueue) or a parent (for a Cohort); Kueue checks lendingLimit against nominalQuota
     * for ClusterQueues only.
     */
    record Owner(boolean isCohort, boolean hasParent) {
        String parentWord() {
            return isCohort ? "parentName" : "cohort";
        }
    }

    private QuotaDecoder() {
    }

    static List<ResourceGroup> resourceGroups(FieldCursor spec, Owner owner) {
        String groupsPath = spec.child("resourceGroups");
        List<FieldCursor> groupNodes = spec.objects("resourceGroups");
        Findings findings = spec.findings();
        if (groupNodes.size() > MAX_RESOURCE_GROUPS) {
            findings.error(groupsPath, "has " + groupNodes.size() + " resource groups; at most "
                    + MAX_RESOURCE_GROUPS + " are allowed");
        }
        Map<String, String> resourceSeenAt = new HashMap<>();
        Map<String, String> flavorSeenAt = new HashMap<>();
        List<ResourceGroup> groups = new ArrayList<>();
        int totalFlavors = 0;
        int totalCovered = 0;
        for (FieldCursor group : groupNodes) {
            ResourceGroup decoded = resourceGroup(group, owner, resourceSeenAt, flavorSeenAt);
            groups.add(decoded);
            totalFlavors += decoded.flavors().size();
            totalCovered += decoded.coveredResources().size();
        }
        if (totalFlavors > MAX_TOTAL) {
            findings.error(groupsPath, "has " + totalFlavors + " flavors across all resource groups; at most "
                    + MAX_TOTAL + " are allowed");
        }
        if (totalCovered > MAX_TOTAL) {
            findings.error(groupsPath, "covers " + totalCovered + " resources across all resource groups; at most "
                    + MAX_TOTAL + " are allowed");
        }
        return groups;
    }

    private static ResourceGroup resourceGroup(FieldCursor group, Owner owner, Map<String, String> resourceSeenAt,
                                               Map<String, String> flavorSeenAt) {
        Findings findings = group.findings();
        boolean coveredGiven = group.has("coveredResources");
        List<String> covered = group.strings("coveredResources");
        String coveredPath = group.child("coveredResources");
        if (coveredGiven) {
            checkCoveredResources(covered, coveredPath, findings, resourceSeenAt);
        }

        List<FieldCursor> flavorNodes = group.objects("flavors");
        String flavorsPath = group.child("flavors");
        if (flavorNodes.isEmpty()) {
            findings.error(flavorsPath, "required: a resource group needs at least one flavor");
        } else if (flavorNodes.size() > MAX_PER_GROUP) {
            findings.error(flavorsPath, "has " + flavorNodes.size() + " flavors; at most " + MAX_PER_GROUP
                    + " are allowed in a resource group");
        }
        List<FlavorQuotas> flavors = new ArrayList<>();
        int flavorResources = 0;
        for (FieldCursor flavor : flavorNodes) {
            String name = flavor.requiredName("name", KubernetesNames::subdomainProblem);
            if (name != null) {
                String earlier = flavorSeenAt.putIfAbsent(name, flavor.child("name"));
                if (earlier != null) {
                    flavor.error("name", "flavor '" + name + "' is already listed at " + earlier
                            + "; a flavor may appear only once in a queue, in one resource group");
                }
            }
            List<ResourceQuota> resources = resourceQuotas(flavor, owner);
            if (!coveredGiven && flavors.isEmpty()) {
                // Kueue requires coveredResources; the seed omits it, so the first flavor's resources stand in. Not
                // a warning on every apply: every flavor must then list the same resources, which is what the
                // group covers (docs/kueue-migration.md says it once).
                covered = resources.stream().map(ResourceQuota::name).filter(n -> n != null).toList();
                checkCoveredResources(covered, coveredPath, findings, resourceSeenAt);
            }
            checkMatchesCovered(flavor, resources, covered);
            flavorResources += resources.size();
            flavors.add(new FlavorQuotas(name, resources));
        }
        if (flavorResources > MAX_FLAVOR_RESOURCES_PER_GROUP) {
            findings.error(group.path(), "has " + flavorResources + " flavor-resource combinations; at most "
                    + MAX_FLAVOR_RESOURCES_PER_GROUP + " are allowed in a resource group");
        }
        return new ResourceGroup(covered, flavors);
    }

    private static void checkCoveredResources(List<String> covered, String coveredPath, Findings findings,
                                              Map<String, String> resourceSeenAt) {
        if (covered.isEmpty()) {
            findings.error(coveredPath, "required: a resource group covers at least one resource");
        } else if (covered.size() > MAX_PER_GROUP) {
            findings.error(coveredPath, "has " + covered.size() + " resources; at most " + MAX_PER_GROUP
                    + " are allowed in a resource group");
        }
        for (int j = 0; j < covered.size(); j++) {
            String resource = covered.get(j);
            String path = FieldCursor.index(coveredPath, j);
            KubernetesNames.qualifiedNameProblem(resource).ifPresent(problem -> findings.error(path, problem));
            String earlier = resourceSeenAt.putIfAbsent(resource, path);
            if (earlier != null) {
                findings.error(path, "resource '" + resource + "' is already covered at " + earlier
                        + "; a resource may be covered once, by one resource group");
            }
        }
    }

    /** Kueue: each flavor lists exactly the group's coveredResources, in the same order. */
    private static void checkMatchesCovered(FieldCursor flavor, List<ResourceQuota> resources, List<String> covered) {
        if (resources.size() != covered.size()) {
            flavor.error("resources", "lists " + resources.size() + " resources but the group's coveredResources "
                    + "lists " + covered.size() + " (" + String.join(", ", covered)
                    + "); each flavor must list exactly the covered resources, in the same order");
        }
        String resourcesPath = flavor.child("resources");
        for (int k = 0; k < Math.min(resources.size(), covered.size()); k++) {
            String name = resources.get(k).name();
            if (name != null && !name.equals(covered.get(k))) {
                flavor.findings().error(FieldCursor.index(resourcesPath, k) + ".name", "'" + name + "' must be '"
                        + covered.get(k) + "', the resource at the same position in coveredResources");
            }
        }
    }

    private static List<ResourceQuota> resourceQuotas(FieldCursor flavor, Owner owner) {
        List<FieldCursor> resourceNodes = flavor.objects("resources");
        if (resourceNodes.isEmpty()) {
            flavor.error("resources", "required: a flavor needs at least one resource");
        } else if (resourceNodes.size() > MAX_PER_GROUP) {
            flavor.error("resources", "has " + resourceNodes.size() + " resources; at most " + MAX_PER_GROUP
                    + " are allowed for a flavor");
        }
        List<ResourceQuota> quotas = new ArrayList<>();
        for (FieldCursor resource : resourceNodes) {
            String name = resource.requiredString("name");
            Quantity nominal = resource.require("nominalQuota") ? resource.quantity("nominalQuota") : null;
            Quantity borrowing = limit(resource, "borrowingLimit", owner);
            Quantity lending = limit(resource, "lendingLimit", owner);
            if (!owner.isCohort() && lending != null && nominal != null && lending.compareTo(nominal) > 0) {
                resource.error("lendingLimit", "'" + lending + "' must be less than or equal to the nominalQuota ('"
                        + nominal + "')");
            }
            quotas.add(new ResourceQuota(name, nominal, borrowing, lending));
        }
        return quotas;
    }

    /** Kueue: borrowingLimit and lendingLimit must be nil when the owner has no cohort (or no parent). */
    private static Quantity limit(FieldCursor resource, String field, Owner owner) {
        if (resource.has(field) && !owner.hasParent()) {
            resource.error(field, "must not be set when " + owner.parentWord() + " is empty: only "
                    + (owner.isCohort() ? "a cohort with a parent" : "a queue in a cohort") + " can borrow or lend");
        }
        return resource.quantity(field);
    }

    /** Null when no weight is given, so that the record's default (1) applies. */
    static FairSharing fairSharing(FieldCursor owner) {
        FieldCursor fairSharing = owner.object("fairSharing");
        if (fairSharing == null) {
            return null;
        }
        Quantity weight = fairSharing.quantity("weight");
        if (weight == null) {
            return null;
        }
        if (weight.value().signum() > 0 && weight.compareTo(SMALLEST_WEIGHT) <= 0) {
            // Kueue: a positive weight this small collapses to zero in its share computations.
            fairSharing.error("weight", "'" + weight + "': when not 0, the weight must be greater than 1n (10^-9)");
        }
        return new FairSharing(weight);
    }
}
