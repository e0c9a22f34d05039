package dev.platform.scheduler.kubernetes;

import dev.platform.scheduler.kubernetes.handlers.ChangeLog;
import dev.platform.scheduler.kubernetes.handlers.KubernetesApi;
import dev.platform.scheduler.kubernetes.registry.KindRegistry;
import dev.platform.scheduler.kubernetes.storage.ManagedFieldsStore;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

import java.time.Clock;
import java.time.Duration;

/** The Kubernetes API's handlers over the registry of served kinds, and this replica's reader of the change log. */
@Configuration(proxyBeanMethods = false)
class KubernetesApiConfiguration {

    /** How often the change log's revision is read: the most a watch event waits after its commit. */
    private static final Duration CHANGE_LOG_POLL = Duration.ofMillis(100);

    @Bean(destroyMethod = "close")
    ChangeLog kubernetesChangeLog(WorkloadTransitions transitions) {
        return new ChangeLog(transitions::committedRevision, transitions::compactedRevision, CHANGE_LOG_POLL);
    }

    @Bean
    KubernetesApi kubernetesApi(KindRegistry registry, JsonMapper json, Clock clock, WorkloadTransitions transitions,
                                ChangeLog changes, ManagedFieldsStore managedFields) {
        return new KubernetesApi(registry, json, clock, transitions::committedRevision, changes, managedFields,
                KubernetesApiController.PREFIX);
    }
}
