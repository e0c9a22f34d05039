package dev.platform.scheduler.kubernetes.storage;

import dev.platform.api.identity.Caller;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.AdmissionCheckManifest;
import dev.platform.api.manifest.ProvisioningRequestConfigManifest;
import dev.platform.scheduler.config.AdmissionCheckConfigs;
import dev.platform.scheduler.config.ConfigStore;
import dev.platform.scheduler.web.KubernetesYaml;
import dev.platform.scheduler.config.ConfigurationController;
import dev.platform.scheduler.config.KubernetesObjects;
import dev.platform.scheduler.config.ObjectKey;
import dev.platform.scheduler.kubernetes.registry.Objects;
import dev.platform.scheduler.refusal.Refusal;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The configuration kinds' objects with status, read through the same queries as the REST API's configuration reads
 * (and filtered for the caller as they are), rendered as Kubernetes writes them.
 */
@Component
public class ConfigViews {

    private final ConfigurationController config;
    private final ConfigStore store;
    private final AdmissionCheckConfigs checks;

    ConfigViews(ConfigurationController config, ConfigStore store, AdmissionCheckConfigs checks) {
        this.config = config;
        this.store = store;
        this.checks = checks;
    }

    /**
     * Kueue's AdmissionCheck: its controller and parameters, and its Active condition: a provisioning check whose
     * ProvisioningRequestConfig does not exist is not active (Kueue's BadParametersRef), and its workloads' checks
     * wait; any other is, since the platform knows every controller name.
     */
    private Map<String, Object> admissionCheck(AdmissionCheckManifest check) {
        Map<String, Object> spec = new java.util.LinkedHashMap<>();
        spec.put("controllerName", check.controllerName());
        if (check.parameters() != null) {
            spec.put("parameters", Map.of("apiGroup", check.parameters().apiGroup(), "kind", check.parameters().kind(),
                    "name", check.parameters().name()));
        }
        boolean missingConfig = check.provisioning() && checks.provisioningFor(check.name()).isEmpty();
        Map<String, Object> active = new java.util.LinkedHashMap<>();
        active.put("type", "Active");
        active.put("status", missingConfig ? "False" : "True");
        active.put("reason", missingConfig ? "BadParametersRef" : "Active");
        active.put("message", missingConfig ? "provisioningrequestconfigs.kueue.x-k8s.io \""
                + (check.parameters() == null ? "" : check.parameters().name()) + "\" not found"
                : check.provisioning() ? "The platform's agents create ProvisioningRequests"
                : "Its state is set by the external controller " + check.controllerName());
        return KubernetesYaml.object(KubernetesObjects.KUEUE, "AdmissionCheck", KubernetesObjects.metadata(null,
                check.name()), spec, Map.of("conditions", List.of(active)));
    }

    private static Map<String, Object> provisioningRequestConfig(ProvisioningRequestConfigManifest config) {
        Map<String, Object> spec = new java.util.LinkedHashMap<>();
        spec.put("provisioningClassName", config.provisioningClassName());
        if (!config.parameters().isEmpty()) {
            spec.put("parameters", config.parameters());
        }
        if (!config.managedResources().isEmpty()) {
            spec.put("managedResources", config.managedResources());
        }
        Map<String, Object> retry = new java.util.LinkedHashMap<>();
        retry.put("backoffLimitCount", config.retryStrategy().backoffLimitCount());
        retry.put("backoffBaseSeconds", config.retryStrategy().backoffBaseSeconds());
        retry.put("backoffMaxSeconds", config.retryStrategy().backoffMaxSeconds());
        retry.values().removeIf(java.util.Objects::isNull);
        spec.put("retryStrategy", retry);
        if (config.podSetMergePolicy() != null) {
            spec.put("podSetMergePolicy", config.podSetMergePolicy().toString());
        }
        return KubernetesYaml.object(KubernetesObjects.KUEUE, "ProvisioningRequestConfig",
                KubernetesObjects.metadata(null, config.name()), spec, null);
    }

    public ConfigObjectStore.Views of(Kind kind) {
        return switch (kind) {
            case RESOURCE_FLAVOR -> views(caller -> config.resourceFlavors().items().stream()
                    .map(KubernetesObjects::resourceFlavor).toList(),
                    (key, caller) -> found(() -> KubernetesObjects.resourceFlavor(config.resourceFlavor(key.name()))));
            case COHORT -> views(caller -> config.cohorts(caller).items().stream().map(KubernetesObjects::cohort).toList(),
                    (key, caller) -> config.cohorts(caller).items().stream().filter(c -> c.name().equals(key.name()))
                            .findFirst().map(KubernetesObjects::cohort));
            case CLUSTER_QUEUE -> views(caller -> config.clusterQueues(caller).items().stream()
                            .map(KubernetesObjects::clusterQueue).toList(),
                    (key, caller) -> found(() -> KubernetesObjects.clusterQueue(config.clusterQueue(key.name()))));
            case LOCAL_QUEUE -> views(caller -> withCounts(config.localQueues(caller).items().stream()
                            .map(KubernetesObjects::localQueue).toList()),
                    (key, caller) -> found(() -> withCounts(List.of(KubernetesObjects.localQueue(
                            config.localQueue(key.namespace(), key.name())))).get(0)));
            case WORKLOAD_PRIORITY_CLASS -> views(caller -> config.workloadPriorityClasses().items().stream()
                            .map(KubernetesObjects::workloadPriorityClass).toList(),
                    (key, caller) -> found(() -> KubernetesObjects.workloadPriorityClass(
                            config.workloadPriorityClass(key.name()))));
            case PRIORITY_CLASS -> views(caller -> config.priorityClasses().items().stream()
                            .map(KubernetesObjects::priorityClass).toList(),
                    (key, caller) -> found(() -> KubernetesObjects.priorityClass(config.priorityClass(key.name()))));
            case NAMESPACE -> views(caller -> config.namespaces(caller).items().stream()
                            .map(KubernetesObjects::namespace).toList(),
                    (key, caller) -> found(() -> KubernetesObjects.namespace(config.namespace(key.name()))));
            case TEAM -> views(caller -> config.teams(caller).items().stream().map(KubernetesObjects::team).toList(),
                    (key, caller) -> found(() -> KubernetesObjects.team(config.team(key.name()))));
            case ADMISSION_CHECK -> views(caller -> checks.admissionChecks().stream().map(this::admissionCheck)
                            .toList(),
                    (key, caller) -> checks.admissionCheck(key.name()).map(this::admissionCheck));
            case PROVISIONING_REQUEST_CONFIG -> views(caller -> checks.provisioningRequestConfigs().stream()
                            .map(ConfigViews::provisioningRequestConfig).toList(),
                    (key, caller) -> checks.provisioningRequestConfig(key.name())
                            .map(ConfigViews::provisioningRequestConfig));
            default -> throw new IllegalArgumentException(kind + " is not a configuration kind");
        };
    }

    private interface Getter {
        Optional<Map<String, Object>> get(ObjectKey key, Caller caller);
    }

    private static ConfigObjectStore.Views views(java.util.function.Function<Caller, List<Map<String, Object>>> list,
                                                 Getter get) {
        return new ConfigObjectStore.Views() {
            @Override
            public List<Map<String, Object>> list(Caller caller) {
                return list.apply(caller);
            }

            @Override
            public Optional<Map<String, Object>> get(ObjectKey key, Caller caller) {
                return get.get(key, caller);
            }
        };
    }

    private static Optional<Map<String, Object>> found(Supplier<Map<String, Object>> read) {
        try {
            return Optional.of(read.get());
        } catch (Refusal refusal) {
            if (refusal.kind() == Refusal.Kind.NotFound) {
                return Optional.empty();
            }
            throw refusal;
        }
    }

    /** Kueue's LocalQueue status counts: pending (waiting, active) and admitted workloads of each queue. */
    private List<Map<String, Object>> withCounts(List<Map<String, Object>> queues) {
        if (queues.isEmpty()) {
            return queues;
        }
        Map<String, ConfigStore.LocalQueueCounts> counts = store.localQueueCounts();
        for (Map<String, Object> queue : queues) {
            ConfigStore.LocalQueueCounts count = counts.getOrDefault(Objects.namespace(queue) + "/"
                    + Objects.name(queue), ConfigStore.LocalQueueCounts.NONE);
            Map<String, Object> status = Objects.mapIn(queue, "status");
            status.put("pendingWorkloads", count.pending());
            status.put("reservingWorkloads", count.admitted());
            status.put("admittedWorkloads", count.admitted());
        }
        return queues;
    }
}
