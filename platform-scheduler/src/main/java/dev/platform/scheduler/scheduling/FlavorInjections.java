package dev.platform.scheduler.scheduling;

import dev.platform.api.manifest.ResourceFlavorManifest.Toleration;
import dev.platform.scheduler.commit.WorkloadDecision;
import dev.platform.scheduler.core.placement.SlicePlacement;

import java.util.List;
import java.util.Map;

/**
 * What Kueue injects into the pod templates of a job it starts on a ResourceFlavor: the flavor's node labels (into
 * the node selector) and its tolerations, per flavor name. Live views that the loop's configuration keeps current.
 */
record FlavorInjections(Map<String, Map<String, String>> nodeLabels, Map<String, List<Toleration>> tolerations) {

    /** Where an admission goes, with what its flavor (null: none) injects. */
    WorkloadDecision.Placed placed(SlicePlacement.Placement where, String flavor) {
        return flavor == null ? new WorkloadDecision.Placed(where, null, Map.of())
                : new WorkloadDecision.Placed(where, flavor, nodeLabels.getOrDefault(flavor, Map.of()),
                tolerations.getOrDefault(flavor, List.of()));
    }
}
