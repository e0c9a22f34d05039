package dev.platform.scheduler.config;

import dev.platform.api.manifest.ClusterQueueManifest.StopPolicy;
import dev.platform.api.manifest.FairSharing;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.scheduler.core.LocalQueueUsage;
import dev.platform.scheduler.core.Quantities;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * A LocalQueue as the API shows it: its spec's fields with defaults applied and, once admission fair sharing has
 * sampled it, its status as Kueue writes it ({@code status.fairSharing.admissionFairSharingStatus}); {@code status}
 * is null before that.
 */
public record LocalQueueView(String namespace, String name, String clusterQueue, StopPolicy stopPolicy,
                             FairSharing fairSharing, Status status) {

    public record Status(FairSharingStatus fairSharing) {
    }

    public record FairSharingStatus(AdmissionFairSharingStatus admissionFairSharingStatus) {
    }

    /** Consumed resources as Kubernetes quantities (rounded to the milli-unit), summed over flavors. */
    public record AdmissionFairSharingStatus(Map<String, String> consumedResources, Instant lastUpdate) {
    }

    static LocalQueueView of(LocalQueueManifest queue, LocalQueueUsage usage) {
        Status status = null;
        if (usage != null) {
            Map<String, String> consumed = new TreeMap<>();
            usage.consumedResources().forEach((resource, milli) -> consumed.put(resource,
                    Quantities.format(Math.round(milli))));
            status = new Status(new FairSharingStatus(new AdmissionFairSharingStatus(consumed, usage.lastUpdate())));
        }
        return new LocalQueueView(queue.namespace(), queue.name(), queue.clusterQueue(), queue.stopPolicy(),
                queue.fairSharing(), status);
    }
}
