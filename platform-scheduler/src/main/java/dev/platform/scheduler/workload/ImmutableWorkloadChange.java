package dev.platform.scheduler.workload;

import dev.platform.scheduler.refusal.Refusal;

import java.util.List;

/**
 * A submitted workload applied again with a field changed that may not change (anything but its activation and its
 * priority-class label): a conflict for the REST API, which names the field the Kubernetes API words as kube-apiserver
 * and the job's webhooks do ("field is immutable").
 */
public class ImmutableWorkloadChange extends Refusal {

    private final String field;

    ImmutableWorkloadChange(String detail, String field) {
        super(Kind.Conflict, "Conflict", detail, List.of());
        this.field = field;
    }

    /** The first field found changed, as a path from the object's root: {@code spec.replicatedJobs}, say. */
    public String field() {
        return field;
    }
}
