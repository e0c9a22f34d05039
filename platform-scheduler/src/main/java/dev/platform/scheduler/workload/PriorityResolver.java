package dev.platform.scheduler.workload;

import dev.platform.api.manifest.PreemptionAnnotations;
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
 * that is named but does not exist is an error, as Kubernetes refuses such pods. Kueue's annotation
 * {@code kueue.x-k8s.io/priority-boost} is added to it: the workload is ordered, preempts and is preempted by that
 * effective priority everywhere.
 */
@Component
public class PriorityResolver {

    private final QueueConfiguration configuration;

    public PriorityResolver(QueueConfiguration configuration) {
        this.configuration = configuration;
    }

    /**
     * The class that decided, the effective priority (the class's value plus the boost) and the boost; className is
     * null when no class decided.
     */
    public record ResolvedPriority(String className, int value, int boost) {

        public ResolvedPriority(String className, int value) {
            this(className, value, 0);
        }

        ResolvedPriority boostedBy(int by) {
            long boosted = (long) value + by;
            return new ResolvedPriority(className, (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, boosted)),
                    by);
        }
    }

    public ResolvedPriority resolve(WorkloadManifest workload) {
        return resolve(workload, configuration);
    }

    /** The priority as {@code configuration} says (a view of it as of now, for one submission), boost included. */
    ResolvedPriority resolve(WorkloadManifest workload, QueueConfiguration configuration) {
        return base(workload, configuration)
                .boostedBy(PreemptionAnnotations.priorityBoost(workload.metadata().annotations()));
    }

    private static ResolvedPriority base(WorkloadManifest workload, QueueConfiguration configuration) {
        if (workload.workloadPriorityClassName() != null) {
            return new ResolvedPriority(workload.workloadPriorityClassName(),
                    configuration.priorityValue("WorkloadPriorityClass", workload.workloadPriorityClassName())
                            .orElseThrow(() -> missingWorkloadPriorityClass(workload.workloadPriorityClassName(),
                                    configuration)));
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


    /**
     * The label {@code kueue.x-k8s.io/priority-class} names a WorkloadPriorityClass; when it names a PriorityClass
     * (scheduling.k8s.io) instead, as Kueue users mix the two up, the refusal says which kind it named and the two
     * ways out.
     */
    private static Refusal missingWorkloadPriorityClass(String name, QueueConfiguration configuration) {
        String path = "metadata.labels.kueue.x-k8s.io/priority-class";
        if (configuration.priorityValue("PriorityClass", name).isEmpty()) {
            return missing("WorkloadPriorityClass", name, path);
        }
        String message = "WorkloadPriorityClass \"" + name + "\" not found: \"" + name + "\" is a PriorityClass"
                + " (scheduling.k8s.io/v1), which the label kueue.x-k8s.io/priority-class does not name; set"
                + " priorityClassName: " + name + " in the pod templates instead, or have an Admin apply a"
                + " WorkloadPriorityClass (kueue.x-k8s.io) named " + name;
        return new Refusal(Refusal.Kind.Invalid, "Invalid workload", message,
                List.of(Map.of("document", 0, "path", path, "message", message)));
    }

    private static Refusal missing(String kind, String name, String path) {
        return new Refusal(Refusal.Kind.Invalid, "Invalid workload",
                kind + " \"" + name + "\" not found",
                List.of(Map.of("document", 0, "path", path, "message", kind + " \"" + name + "\" not found")));
    }
}
