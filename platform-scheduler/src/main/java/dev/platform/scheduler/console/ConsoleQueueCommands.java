package dev.platform.scheduler.console;

import dev.platform.api.identity.Caller;
import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.scheduler.config.ConfigStore;
import dev.platform.scheduler.config.ConfigurationService;
import dev.platform.scheduler.config.ObjectKey;
import dev.platform.web.queue.QueueCommands;
import org.springframework.stereotype.Component;

/** The queue page's Stop and Resume, through the same service as the REST actions (audited under the caller). */
@Component
class ConsoleQueueCommands implements QueueCommands {

    private final ConfigStore config;
    private final ConfigurationService configuration;

    ConsoleQueueCommands(ConfigStore config, ConfigurationService configuration) {
        this.config = config;
        this.configuration = configuration;
    }

    @Override
    public boolean setStopPolicy(Caller caller, String clusterQueue, String stopPolicy) {
        ObjectKey key = ObjectKey.cluster(clusterQueue);
        if (config.find(Kind.CLUSTER_QUEUE, key, ClusterQueueManifest.class).isEmpty()) {
            return false;
        }
        configuration.setStopPolicy(Kind.CLUSTER_QUEUE, key, ClusterQueueManifest.StopPolicy.valueOf(stopPolicy),
                caller.name());
        return true;
    }
}
