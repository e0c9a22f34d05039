package dev.platform.scheduler.core.model;

import java.util.List;

/** One flavor of a resource group with the quotas of the group's resources. */
public record FlavorQuotas(String name, List<ResourceQuota> resources) {

    public FlavorQuotas {
        resources = List.copyOf(resources);
    }
}
