package dev.platform.scheduler.kubernetes.storage;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.visibility.KueueVisibilityController;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Kueue's visibility API ({@code visibility.kueue.x-k8s.io}): the {@code pendingworkloads} of a ClusterQueue or a
 * LocalQueue, a {@code PendingWorkloadsSummary} as Kueue's visibility server answers it, from the same queries as the
 * platform's own visibility endpoints, so {@code kubectl get --raw} scripts work against the Kubernetes API.
 */
public final class VisibilityStore implements ObjectStore {

    private final boolean localQueues;
    private final KueueVisibilityController visibility;

    public VisibilityStore(boolean localQueues, KueueVisibilityController visibility) {
        this.localQueues = localQueues;
        this.visibility = visibility;
    }

    @Override
    public Optional<Map<String, Object>> get(String namespace, String name, Caller caller) {
        return subresource(namespace, name, "pendingworkloads", Map.of(), caller).map(summary -> {
            Map<String, Object> object = new LinkedHashMap<>();
            object.put("kind", localQueues ? "LocalQueue" : "ClusterQueue");
            Map<String, Object> metadata = new LinkedHashMap<>();
            metadata.put("name", name);
            if (namespace != null) {
                metadata.put("namespace", namespace);
            }
            object.put("metadata", metadata);
            return object;
        });
    }

    @Override
    public Page list(ListQuery query, Caller caller) {
        return new Page(List.of(), false);
    }

    @Override
    public Optional<Map<String, Object>> subresource(String namespace, String name, String subresource,
                                                     Map<String, String> parameters, Caller caller) {
        long offset = number(parameters.get("offset"));
        long limit = number(parameters.get("limit"));
        try {
            return Optional.of(localQueues ? visibility.localQueue(namespace, name, offset, limit)
                    : visibility.clusterQueue(name, offset, limit, caller));
        } catch (Refusal refusal) {
            if (refusal.kind() == Refusal.Kind.NotFound) {
                return Optional.empty();
            }
            throw refusal;
        }
    }

    private static long number(String value) {
        try {
            return value == null || value.isEmpty() ? 0 : Long.parseLong(value);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
