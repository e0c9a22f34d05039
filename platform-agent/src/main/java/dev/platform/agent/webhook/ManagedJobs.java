package dev.platform.agent.webhook;

import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Which jobs without a queue name the platform manages, as Kueue's {@code manageJobsWithoutQueueName} and
 * {@code managedJobsNamespaceSelector} decide: none unless switched on; then those in the namespaces whose labels
 * the selector matches, which go to the namespace's LocalQueue named {@code defaultQueueName} (Kueue's
 * LocalQueue defaulting names it {@code default}). A job that names a queue is managed wherever it is.
 *
 * @param namespaceLabels the labels of a namespace, read from the cluster when a job without a queue name is
 *                        reviewed (the AdmissionReview does not carry them)
 */
public record ManagedJobs(boolean withoutQueueName, Predicate<Map<String, String>> namespaceSelector,
                   String defaultQueueName, Function<String, Map<String, String>> namespaceLabels) {

    /** Only jobs that name a queue: Kueue's default. */
    public static ManagedJobs queueNamedOnly() {
        return new ManagedJobs(false, labels -> false, "default", namespace -> Map.of());
    }

    /** The queue a job without a queue name goes to in {@code namespace}, or null when the platform leaves it alone. */
    String defaultQueueIn(String namespace) {
        if (!withoutQueueName || !namespaceSelector.test(namespaceLabels.apply(namespace))) {
            return null;
        }
        return defaultQueueName;
    }
}
