package dev.platform.api.manifest;

import java.util.List;

/** A Cohort object; parentName builds the hierarchy; its own resourceGroups add quota to the tree. */
public record CohortManifest(String name, String parentName, List<ResourceGroup> resourceGroups, FairSharing fairSharing)
        implements ConfigManifest {

    public CohortManifest {
        resourceGroups = resourceGroups == null ? List.of() : List.copyOf(resourceGroups);
        fairSharing = fairSharing == null ? FairSharing.DEFAULT : fairSharing;
    }

    @Override
    public Kind kind() {
        return Kind.COHORT;
    }
}
