package dev.platform.agent.cluster;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.cache.Caches;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The objects an informer has handed to the agent's event handler. An informer counts as synced once its cache
 * holds the initial list, but it hands the objects to handlers on a thread of its own, later: until the handler
 * has seen every object of the cache, the inventory built from it is incomplete, and a FULL report made from it
 * would tell the scheduler that pools vanished.
 */
public final class DeliveredObjects<T extends KubernetesObject> {

    private final Set<String> keys = ConcurrentHashMap.newKeySet();

    /** {@code handler}, noting the key of every object it is handed. */
    public ResourceEventHandler<T> noting(ResourceEventHandler<T> handler) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                handler.onAdd(obj);
                keys.add(Caches.metaNamespaceKeyFunc(obj));
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                handler.onUpdate(oldObj, newObj);
                keys.add(Caches.metaNamespaceKeyFunc(newObj));
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                handler.onDelete(obj, deletedFinalStateUnknown);
                keys.remove(Caches.metaNamespaceKeyFunc(obj));
            }
        };
    }

    /** Whether {@code informer} has listed and every object in its cache has reached the handler. */
    public boolean caughtUpWith(SharedIndexInformer<T> informer) {
        return informer.hasSynced() && keys.containsAll(informer.getIndexer().listKeys());
    }
}
