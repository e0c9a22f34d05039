package dev.platform.scheduler.config;

import dev.platform.api.identity.Caller;
import dev.platform.api.manifest.ClusterQueueManifest.StopPolicy;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.LocalQueueManifest;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * What operators type during an incident, kueuectl's stop and resume of queues: {@code stop} sets
 * {@code spec.stopPolicy: Hold} (no new admissions; admitted workloads keep running), {@code stop?drain=true}
 * {@code HoldAndDrain} (admitted workloads are evicted too), {@code resume} {@code None}. Each is the change applying
 * the queue's manifest with that field would make, audited the same way; only Admins apply configuration.
 */
@RestController
@RequestMapping(path = "/api/v1", produces = "application/json")
public class QueueStopController {

    private final ConfigurationService configuration;
    private final ConfigurationController queues;

    public QueueStopController(ConfigurationService configuration, ConfigurationController queues) {
        this.configuration = configuration;
        this.queues = queues;
    }

    @PostMapping("/clusterqueues/{name}/stop")
    public ClusterQueueView stopClusterQueue(@PathVariable String name,
                                             @RequestParam(defaultValue = "false") boolean drain, Caller caller) {
        configuration.setStopPolicy(Kind.CLUSTER_QUEUE, ObjectKey.cluster(name), stopPolicy(drain), caller.name());
        return queues.clusterQueue(name);
    }

    @PostMapping("/clusterqueues/{name}/resume")
    public ClusterQueueView resumeClusterQueue(@PathVariable String name, Caller caller) {
        configuration.setStopPolicy(Kind.CLUSTER_QUEUE, ObjectKey.cluster(name), StopPolicy.None, caller.name());
        return queues.clusterQueue(name);
    }

    @PostMapping("/namespaces/{namespace}/localqueues/{name}/stop")
    public LocalQueueManifest stopLocalQueue(@PathVariable String namespace, @PathVariable String name,
                                             @RequestParam(defaultValue = "false") boolean drain, Caller caller) {
        return (LocalQueueManifest) configuration.setStopPolicy(Kind.LOCAL_QUEUE, new ObjectKey(namespace, name),
                stopPolicy(drain), caller.name());
    }

    @PostMapping("/namespaces/{namespace}/localqueues/{name}/resume")
    public LocalQueueManifest resumeLocalQueue(@PathVariable String namespace, @PathVariable String name,
                                               Caller caller) {
        return (LocalQueueManifest) configuration.setStopPolicy(Kind.LOCAL_QUEUE, new ObjectKey(namespace, name),
                StopPolicy.None, caller.name());
    }

    private static StopPolicy stopPolicy(boolean drain) {
        return drain ? StopPolicy.HoldAndDrain : StopPolicy.Hold;
    }
}
