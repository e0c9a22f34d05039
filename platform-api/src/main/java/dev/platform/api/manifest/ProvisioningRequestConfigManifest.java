package dev.platform.api.manifest;

import java.util.List;
import java.util.Map;

/**
 * Kueue's ProvisioningRequestConfig: the {@code provisioningClassName} and {@code parameters} each
 * ProvisioningRequest gets, the {@code managedResources} that call for one (empty: every workload), how failed
 * requests are retried and how pod sets merge into the request's pod sets (null: one pod set each).
 */
public record ProvisioningRequestConfigManifest(String name, String provisioningClassName,
                                                Map<String, String> parameters, List<String> managedResources,
                                                RetryStrategy retryStrategy, PodSetMergePolicy podSetMergePolicy)
        implements ConfigManifest {

    public ProvisioningRequestConfigManifest {
        parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
        managedResources = managedResources == null ? List.of() : List.copyOf(managedResources);
        retryStrategy = retryStrategy == null ? RetryStrategy.DEFAULT : retryStrategy;
    }

    /** {@code spec.retryStrategy}, Kueue's defaults for the fields not given: 3 retries, 60 s doubling to 1800 s. */
    public record RetryStrategy(Integer backoffLimitCount, Integer backoffBaseSeconds, Integer backoffMaxSeconds) {
        public static final RetryStrategy DEFAULT = new RetryStrategy(3, 60, 1800);

        public RetryStrategy {
            backoffLimitCount = backoffLimitCount == null ? 3 : backoffLimitCount;
            backoffBaseSeconds = backoffBaseSeconds == null ? 60 : backoffBaseSeconds;
            backoffMaxSeconds = backoffMaxSeconds == null ? 1800 : backoffMaxSeconds;
        }
    }

    public enum PodSetMergePolicy { IdenticalPodTemplates, IdenticalWorkloadSchedulingRequirements }

    @Override
    public Kind kind() {
        return Kind.PROVISIONING_REQUEST_CONFIG;
    }

    /** Whether a workload requesting {@code resources} needs a request (Kueue's reqIsNeeded). */
    public boolean needsRequest(java.util.Collection<String> resources) {
        return managedResources.isEmpty() || resources.stream().anyMatch(managedResources::contains);
    }
}
