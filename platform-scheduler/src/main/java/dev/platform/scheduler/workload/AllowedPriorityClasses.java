package dev.platform.scheduler.workload;

import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.WorkloadManifest;
import dev.platform.scheduler.identity.TeamPriorityClasses;
import dev.platform.scheduler.identity.TeamPriorityClasses.Restriction;
import dev.platform.scheduler.refusal.Refusal;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which priority classes a workload may name: those its namespace's team allows ({@code spec.allowedPriorityClasses}
 * of the Team, set by an Admin), any when the team sets no list or no team owns the namespace. As a ResourceQuota
 * scoped on priority classes does, the check applies to the classes a workload names; one that names none gets the
 * default priority. A Workload's own {@code spec.priority} would bypass the list, so a restricted team's Workload
 * must take its priority from a class.
 */
@Component
class AllowedPriorityClasses {

    private final TeamPriorityClasses teams;

    AllowedPriorityClasses(TeamPriorityClasses teams) {
        this.teams = teams;
    }

    /** Refuses {@code manifest}, document {@code document} of its request, when it names a class its team may not use. */
    void require(WorkloadManifest manifest, int document) {
        boolean namesClass = manifest.workloadPriorityClassName() != null || manifest.priorityClassName() != null;
        if (!namesClass && manifest.explicitPriority() == null) {
            return;
        }
        Optional<Restriction> restriction = teams.of(manifest.namespace());
        if (restriction.isEmpty()) {
            return;
        }
        List<Map<String, Object>> errors = new ArrayList<>();
        String workload = manifest.kind().manifestName() + " " + manifest.namespace() + "/" + manifest.name();
        if (manifest.workloadPriorityClassName() != null && !restriction.get().allows(manifest.workloadPriorityClassName())) {
            errors.add(error(document, "metadata.labels." + WorkloadUpdates.PRIORITY_CLASS_LABEL,
                    notAllowed(workload, "WorkloadPriorityClass", manifest.workloadPriorityClassName(), manifest.namespace(),
                            restriction.get())));
        }
        if (manifest.priorityClassName() != null && !restriction.get().allows(manifest.priorityClassName())) {
            errors.add(error(document, manifest.kind() == Kind.WORKLOAD ? "spec.priorityClassName" : "priorityClassName",
                    notAllowed(workload, "PriorityClass", manifest.priorityClassName(), manifest.namespace(),
                            restriction.get())));
        }
        if (!namesClass) {
            errors.add(error(document, "spec.priority", workload + " sets spec.priority without a priority class; team "
                    + restriction.get().team() + " restricts the priority classes of namespace " + manifest.namespace()
                    + ", so its workloads take their priority from a class: " + allowed(restriction.get())));
        }
        refuseIf(errors);
    }

    /**
     * Refuses a change of {@code workload}'s label {@code kueue.x-k8s.io/priority-class} to
     * {@code workloadPriorityClass} (null: the label removed, which names no class) when its team may not use it.
     */
    void requireForLabel(WorkloadRow workload, String workloadPriorityClass) {
        if (workloadPriorityClass == null) {
            return;
        }
        String name = workload.kind() + " " + workload.namespace() + "/" + workload.name();
        teams.of(workload.namespace()).filter(r -> !r.allows(workloadPriorityClass)).ifPresent(r -> refuseIf(List.of(
                error(0, "metadata.labels." + WorkloadUpdates.PRIORITY_CLASS_LABEL,
                        notAllowed(name, "WorkloadPriorityClass", workloadPriorityClass, workload.namespace(), r)))));
    }

    private static String notAllowed(String workload, String kind, String priorityClass, String namespace,
                                     Restriction restriction) {
        return workload + " names " + kind + " " + priorityClass + ", which team " + restriction.team()
                + " may not use in namespace " + namespace + ": " + allowed(restriction);
    }

    private static String allowed(Restriction restriction) {
        return restriction.allowed().isEmpty()
                ? "it may use no priority class (an Admin lists those it may in the Team's spec.allowedPriorityClasses)"
                : "it may use " + String.join(", ", restriction.allowed());
    }

    private static Map<String, Object> error(int document, String path, String message) {
        return Map.of("document", document, "path", path, "message", message);
    }

    private static void refuseIf(List<Map<String, Object>> errors) {
        if (!errors.isEmpty()) {
            throw new Refusal(Refusal.Kind.Invalid, "Invalid workload",
                    errors.stream().map(e -> e.get("message").toString()).reduce((a, b) -> a + "; " + b).orElseThrow(),
                    errors);
        }
    }
}
