package dev.platform.scheduler.core.model;

import java.util.List;

/** Resources that are assigned flavors together, flavors in preference order. */
public record ResourceGroup(List<String> coveredResources, List<FlavorQuotas> flavors) {

    public ResourceGroup {
        coveredResources = List.copyOf(coveredResources);
        flavors = List.copyOf(flavors);
    }
}
