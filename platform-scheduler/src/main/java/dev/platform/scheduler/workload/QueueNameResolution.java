package dev.platform.scheduler.workload;

import dev.platform.api.manifest.decode.NearestName;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.NamespaceManifest;
import dev.platform.api.manifest.WorkloadManifest;
import dev.platform.scheduler.refusal.Refusal;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which LocalQueue a submitted workload goes to, or whether it runs in priority-only mode (no quota). A queue name
 * the manifest gives is taken as it is. Without one, as Kueue's LocalQueueDefaulting does, the namespace's LocalQueue
 * {@code default} takes it; else it runs in priority-only mode if an Admin allowed that for the namespace (label
 * {@value NamespaceManifest#PRIORITY_ONLY_LABEL}={@value NamespaceManifest#PRIORITY_ONLY_ALLOWED} on its Namespace);
 * else it is refused, naming the namespace's LocalQueues. A label or annotation that looks like a misspelt
 * queue-name key is refused whatever the namespace allows: its writer meant a queue, and no quota is not that.
 */
@Component
class QueueNameResolution {

    static final String QUEUE_NAME_KEY = "kueue.x-k8s.io/queue-name";
    /** LocalQueues named in a refusal; a namespace may have many more. */
    private static final int NAMED_QUEUES = 20;

    private final QueueConfiguration configuration;
    private final String defaultQueueName;

    QueueNameResolution(QueueConfiguration configuration,
                        @Value("${platform.workloads.default-queue-name:default}") String defaultQueueName) {
        this.configuration = configuration;
        this.defaultQueueName = defaultQueueName.isBlank() ? null : defaultQueueName;
    }

    /** The queue chosen: a LocalQueue's name, or none for priority-only mode. */
    record QueueChoice(String queueName) {

        static QueueChoice priorityOnly() {
            return new QueueChoice(null);
        }

        boolean isPriorityOnly() {
            return queueName == null;
        }
    }

    /** The queue of {@code manifest}, document {@code document} of its request; refused when it has none. */
    QueueChoice resolve(WorkloadManifest manifest, int document) {
        if (manifest.queueName() != null) {
            return new QueueChoice(manifest.queueName());
        }
        List<Map<String, Object>> misspelt = misspeltQueueKeys(manifest, document);
        if (!misspelt.isEmpty()) {
            throw new Refusal(Refusal.Kind.Invalid, "Invalid workload", misspelt.get(0).get("message").toString(),
                    misspelt);
        }
        String namespace = manifest.namespace();
        if (defaultQueueName != null && localQueueExists(namespace, defaultQueueName)) {
            return new QueueChoice(defaultQueueName);
        }
        if (allowsPriorityOnly(namespace)) {
            return QueueChoice.priorityOnly();
        }
        String path = manifest.kind() == Kind.WORKLOAD ? "spec.queueName" : "metadata.labels." + QUEUE_NAME_KEY;
        String message = manifest.kind().manifestName() + " " + namespace + "/" + manifest.name() + " names no LocalQueue"
                + " (" + (manifest.kind() == Kind.WORKLOAD ? "spec.queueName" : "label " + QUEUE_NAME_KEY) + "). "
                + queuesOf(namespace) + " Priority-only mode (no quota) is not allowed in namespace " + namespace
                + ": an Admin allows it with the label " + NamespaceManifest.PRIORITY_ONLY_LABEL + ": "
                + NamespaceManifest.PRIORITY_ONLY_ALLOWED + " on Namespace " + namespace + ".";
        throw new Refusal(Refusal.Kind.Invalid, "Invalid workload", message,
                List.of(Map.of("document", document, "path", path, "message", message)));
    }

    private String queuesOf(String namespace) {
        List<String> names = configuration.localQueueNames(namespace, NAMED_QUEUES + 1);
        if (names.isEmpty()) {
            return "Namespace " + namespace + " has no LocalQueue" + (defaultQueueName == null ? "."
                    : " (an Admin may create one named " + defaultQueueName + ", which then takes such workloads).");
        }
        String listed = String.join(", ", names.subList(0, Math.min(names.size(), NAMED_QUEUES)))
                + (names.size() > NAMED_QUEUES ? ", …" : "");
        return "Name one of the LocalQueues of namespace " + namespace + ": " + listed + ".";
    }

    private boolean localQueueExists(String namespace, String name) {
        return configuration.localQueueExists(namespace, name);
    }

    private boolean allowsPriorityOnly(String namespace) {
        return configuration.namespaceLabel(namespace, NamespaceManifest.PRIORITY_ONLY_LABEL)
                .filter(NamespaceManifest.PRIORITY_ONLY_ALLOWED::equals).isPresent();
    }

    /** Labels and annotations that look like the queue-name key but are not the one Kueue reads for this kind. */
    private static List<Map<String, Object>> misspeltQueueKeys(WorkloadManifest manifest, int document) {
        Map<String, String> found = new TreeMap<>();
        manifest.metadata().labels().keySet().forEach(k -> found.put("metadata.labels." + k, k));
        manifest.metadata().annotations().keySet().forEach(k -> found.put("metadata.annotations." + k, k));
        String where = manifest.kind() == Kind.WORKLOAD ? "spec.queueName" : QUEUE_NAME_KEY;
        List<Map<String, Object>> errors = new ArrayList<>();
        found.forEach((path, key) -> {
            boolean theKey = key.equals(QUEUE_NAME_KEY);
            if (theKey ? manifest.kind() == Kind.WORKLOAD : looksLikeQueueKey(key)) {
                String message = "'" + key + "' is not where Kueue reads the LocalQueue of a "
                        + manifest.kind().manifestName() + ": name it with " + where;
                errors.add(Map.of("document", document, "path", path, "message", message));
            }
        });
        return errors;
    }

    /** kueue.x-k8s.io/queue, queue_name, local-queue, a typo of the key: names that mean a queue. */
    static boolean looksLikeQueueKey(String key) {
        String name = key.substring(key.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT).replaceAll("[-_.]", "");
        return name.equals("queue") || name.equals("queuename") || name.equals("localqueue")
                || name.equals("localqueuename") || NearestName.edits(key.toLowerCase(Locale.ROOT), QUEUE_NAME_KEY) <= 3;
    }
}
