package dev.platform.scheduler.core.model;

import java.util.List;

/** A Cohort object: its parent (null for a root), its own quota, and its fair-sharing weight. */
public record CohortSpec(String name, String parentName, List<ResourceGroup> resourceGroups, double fairWeight) {

    public CohortSpec {
        resourceGroups = resourceGroups == null ? List.of() : List.copyOf(resourceGroups);
    }

    /** A cohort known only because a ClusterQueue or Cohort names it. */
    public static CohortSpec implicit(String name) {
        return new CohortSpec(name, null, List.of(), 1.0);
    }
}
