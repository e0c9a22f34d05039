package dev.platform.scheduler.console;

import dev.platform.api.identity.Caller;
import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.ConfigManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.scheduler.config.ConfigStore;
import dev.platform.scheduler.config.ConfigurationService;
import dev.platform.scheduler.config.ObjectKey;
import dev.platform.web.queue.QueueCommands;
import dev.platform.web.team.TeamCommands;
import org.springframework.stereotype.Component;

/**
 * The queue page's Stop and Resume of a ClusterQueue and the team page's of a LocalQueue, through the same
 * service as the REST actions (audited under the caller).
 */
@Component
class ConsoleQueueCommands implements QueueCommands, TeamCommands {

    private final ConfigStore config;
    private final ConfigurationService configuration;

    ConsoleQueueCommands(ConfigStore config, ConfigurationService configuration) {
        this.config = config;
        this.configuration = configuration;
    }

    @Override
    public boolean setStopPolicy(Caller caller, String clusterQueue, String stopPolicy) {
        return setStopPolicy(caller, Kind.CLUSTER_QUEUE, ObjectKey.cluster(clusterQueue), ClusterQueueManifest.class,
                stopPolicy);
    }

    @Override
    public boolean setStopPolicy(Caller caller, String namespace, String localQueue, String stopPolicy) {
        return setStopPolicy(caller, Kind.LOCAL_QUEUE, new ObjectKey(namespace, localQueue), LocalQueueManifest.class,
                stopPolicy);
    }

    private boolean setStopPolicy(Caller caller, Kind kind, ObjectKey key, Class<? extends ConfigManifest> type,
                                  String stopPolicy) {
        if (config.find(kind, key, type).isEmpty()) {
            return false;
        }
        configuration.setStopPolicy(kind, key, ClusterQueueManifest.StopPolicy.valueOf(stopPolicy), caller.name());
        return true;
    }
}
