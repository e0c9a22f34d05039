package dev.platform.scheduler.core.model;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * A workload holding quota: its admission, its usage per flavor-resource, when it was admitted, when it last wrote a
 * checkpoint ({@code platform.dev/last-checkpoint}; null when unknown, and then its whole run since admission is
 * unsaved) and whether it is already being evicted (a victim keeps its quota until the eviction completes).
 */
public record AdmittedWorkload(Workload workload, Admission admission, Map<FlavorResource, Long> usage,
                               Instant admittedAt, Instant lastCheckpoint, boolean evicted) {

    public AdmittedWorkload {
        usage = Map.copyOf(usage);
    }

    public String clusterQueue() {
        return admission.clusterQueue();
    }

    public String uid() {
        return workload.uid();
    }

    public int priority() {
        return workload.priority();
    }

    public AdmittedWorkload withPriority(int priority) {
        return new AdmittedWorkload(workload.withPriority(priority), admission, usage, admittedAt, lastCheckpoint,
                evicted);
    }

    public AdmittedWorkload withLastCheckpoint(Instant checkpoint) {
        return new AdmittedWorkload(workload, admission, usage, admittedAt, checkpoint, evicted);
    }

    public AdmittedWorkload markEvicted() {
        return new AdmittedWorkload(workload, admission, usage, admittedAt, lastCheckpoint, true);
    }

    /** What a preemption would throw away, counting {@code resources} (the lost-work resources). */
    public UnsavedWork unsavedWork(Set<String> resources) {
        return UnsavedWork.of(usage, resources, admittedAt, lastCheckpoint);
    }

    /** Usage per flavor-resource of an admission, summed over its pod sets. */
    public static Map<FlavorResource, Long> usageOf(Admission admission) {
        Map<FlavorResource, Long> usage = new java.util.TreeMap<>();
        for (PodSetAssignment ps : admission.podSetAssignments()) {
            ps.resourceUsage().forEach((resource, amount) -> {
                String flavor = ps.flavors().get(resource);
                if (flavor != null) {
                    usage.merge(new FlavorResource(flavor, resource), amount, Long::sum);
                }
            });
        }
        return usage;
    }
}
