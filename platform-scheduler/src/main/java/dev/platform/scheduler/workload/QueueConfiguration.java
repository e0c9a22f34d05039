package dev.platform.scheduler.workload;

import dev.platform.scheduler.core.model.FlavorResource;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a submission reads of the configuration: LocalQueues, namespace labels, what a ClusterQueue covers and
 * holds, priority classes. The config feature owns those tables and implements this port, so the workload
 * feature reads them without depending on it.
 */
public interface QueueConfiguration {

    /**
     * This configuration as it stands now, for the several reads one submission makes: the latest configuration
     * change is looked up once, and what was read since that change is answered from memory. The view's answers are
     * those of a moment at or after this call, as reading each from the tables a moment later would give.
     */
    QueueConfiguration asOfNow();

    /**
     * This configuration as this replica last looked it up ({@link #asOfNow()}), without looking the latest change
     * up: possibly older than now. The same view as {@link #asOfNow()} gives until the configuration changes, so a
     * check made against it holds as long as {@link #asOfNow()} returns this very view.
     */
    QueueConfiguration asLastRead();

    /** The ClusterQueue a LocalQueue feeds; empty when the LocalQueue does not exist. */
    Optional<String> clusterQueueOf(String namespace, String localQueue);

    boolean localQueueExists(String namespace, String localQueue);

    /** The first {@code limit} LocalQueues of a namespace, by name. */
    List<String> localQueueNames(String namespace, int limit);

    /** A label of a namespace; empty when the namespace or the label does not exist. */
    Optional<String> namespaceLabel(String namespace, String label);

    /** The resources a ClusterQueue has quota rows for, in name order. */
    Set<String> coveredResources(String clusterQueue);

    /**
     * The most a ClusterQueue's workload can hold of each flavor-resource, in milli-units: its nominal quota plus
     * what it may borrow from its cohort tree.
     */
    Map<FlavorResource, Long> capacity(String clusterQueue);

    /** The value of a PriorityClass or WorkloadPriorityClass ({@code kind}); empty when none has that name. */
    Optional<Integer> priorityValue(String kind, String name);

    /** The PriorityClass marked globalDefault, if any. */
    Optional<PriorityClassValue> globalDefaultPriorityClass();

    /** A priority class's name and value. */
    record PriorityClassValue(String name, int value) {
    }
}
