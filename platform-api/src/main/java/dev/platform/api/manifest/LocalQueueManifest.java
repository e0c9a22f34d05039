package dev.platform.api.manifest;

/** A namespaced LocalQueue pointing at a ClusterQueue. */
public record LocalQueueManifest(String namespace, String name, String clusterQueue,
                                 ClusterQueueManifest.StopPolicy stopPolicy, FairSharing fairSharing)
        implements ConfigManifest {

    public LocalQueueManifest {
        stopPolicy = stopPolicy == null ? ClusterQueueManifest.StopPolicy.None : stopPolicy;
        fairSharing = fairSharing == null ? FairSharing.DEFAULT : fairSharing;
    }

    @Override
    public Kind kind() {
        return Kind.LOCAL_QUEUE;
    }
}
