package dev.platform.scheduler.kubernetes;

import dev.platform.scheduler.kubernetes.handlers.ChangeLog;
import dev.platform.scheduler.kubernetes.handlers.KubernetesApi;
import dev.platform.scheduler.kubernetes.registry.KindRegistry;
import dev.platform.scheduler.kubernetes.storage.ManagedFieldsStore;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.springframework.context.SmartLifecycle;
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

    /**
     * Reads the change log while the application runs. It stops before the web server's graceful shutdown (a later
     * phase stops first), so that open watches end at once instead of holding the shutdown until its timeout; and it
     * starts again when the application does (a test context paused and resumed).
     */
    @Bean
    SmartLifecycle kubernetesChangeLogLifecycle(ChangeLog changes) {
        return new SmartLifecycle() {
            private volatile boolean running;

            @Override
            public void start() {
                changes.start();
                running = true;
            }

            @Override
            public void stop() {
                running = false;
                changes.close();
            }

            @Override
            public boolean isRunning() {
                return running;
            }

            @Override
            public int getPhase() {
                return Integer.MAX_VALUE;
            }
        };
    }

    @Bean
    KubernetesApi kubernetesApi(KindRegistry registry, JsonMapper json, Clock clock, WorkloadTransitions transitions,
                                ChangeLog changes, ManagedFieldsStore managedFields) {
        return new KubernetesApi(registry, json, clock, transitions::committedRevision, changes, managedFields,
                KubernetesApiController.PREFIX);
    }
}
