package dev.platform.scheduler.core.forecast;

import dev.platform.scheduler.core.model.Workload;

/** Whose submissions an arrival process describes: one LocalQueue (namespace and name) and priority class. */
public record ArrivalKey(String namespace, String localQueue, String priorityClassName) {

    public static ArrivalKey of(Workload w) {
        return new ArrivalKey(w.namespace(), w.localQueue(), w.priorityClassName());
    }

    /** The LocalQueue as the configuration names it, {@code namespace/name}. */
    public String localQueueKey() {
        return namespace + "/" + localQueue;
    }
}
