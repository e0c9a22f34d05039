package dev.platform.api.manifest;

import java.util.List;

/** Kueue's resource group: resources that are assigned one flavor together, flavors in preference order. */
public record ResourceGroup(List<String> coveredResources, List<FlavorQuotas> flavors) {

    public ResourceGroup {
        coveredResources = List.copyOf(coveredResources);
        flavors = List.copyOf(flavors);
    }

    public record FlavorQuotas(String name, List<ResourceQuota> resources) {
        public FlavorQuotas {
            resources = List.copyOf(resources);
        }
    }

    /** borrowingLimit and lendingLimit are null when unlimited (Kueue's nil). */
    public record ResourceQuota(String name, Quantity nominalQuota, Quantity borrowingLimit, Quantity lendingLimit) {
    }
}
