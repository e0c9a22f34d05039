package dev.platform.scheduler.workload;

import dev.platform.api.manifest.WorkloadManifest;
import dev.platform.scheduler.refusal.Refusal;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A workload's priority: the WorkloadPriorityClass named by label
 * {@code kueue.x-k8s.io/priority-class} first, else the pod templates' PriorityClass, else
 * {@code spec.priority} of a Workload, else the global default PriorityClass, else 0. A class
 * that is named but does not exist is an error, as Kubernetes refuses such pods.
 */
@Component
public class PriorityResolver {

    private final QueueConfiguration configuration;

    public PriorityResolver(QueueConfiguration configuration) {
        this.configuration = configuration;
    }

    /** The class that decided and its value; className is null when none did. */
    public record ResolvedPriority(String className, int value) {
    }

    public ResolvedPriority resolve(WorkloadManifest workload) {
        return resolve(workload, configuration);
    }

    /** The priority as {@code configuration} says (a view of it as of now, for one submission). */
    ResolvedPriority resolve(WorkloadManifest workload, QueueConfiguration configuration) {
        if (workload.workloadPriorityClassName() != null) {
            return new ResolvedPriority(workload.workloadPriorityClassName(),
                    configuration.priorityValue("WorkloadPriorityClass", workload.workloadPriorityClassName())
                            .orElseThrow(() -> missing("WorkloadPriorityClass", workload.workloadPriorityClassName(),
                                    "metadata.labels.kueue.x-k8s.io/priority-class")));
        }
        if (workload.priorityClassName() != null) {
            return new ResolvedPriority(workload.priorityClassName(),
                    configuration.priorityValue("PriorityClass", workload.priorityClassName())
                            .orElseThrow(() -> missing("PriorityClass", workload.priorityClassName(),
                                    "priorityClassName")));
        }
        if (workload.explicitPriority() != null) {
            return new ResolvedPriority(null, workload.explicitPriority());
        }
        return configuration.globalDefaultPriorityClass()
                .map(c -> new ResolvedPriority(c.name(), c.value()))
                .orElse(new ResolvedPriority(null, 0));
    }


    private static Refusal missing(String kind, String name, String path) {
        return new Refusal(Refusal.Kind.Invalid, "Invalid workload",
                kind + " \"" + name + "\" not found",
                List.of(Map.of("document", 0, "path", path, "message", kind + " \"" + name + "\" not found")));
    }
}
