package dev.platform.scheduler.admissioncheck;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.workload.WorkloadStatus;
import dev.platform.scheduler.workload.WorkloadStatuses;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Where an external admission check controller sets a check's state on a workload (Kueue's status.admissionChecks). */
@RestController
@RequestMapping(path = "/api/v1/namespaces/{namespace}/workloads/{name}/admissionchecks", produces = "application/json")
public class AdmissionCheckController {

    private final AdmissionCheckUpdates updates;
    private final WorkloadStatuses statuses;

    public AdmissionCheckController(AdmissionCheckUpdates updates, WorkloadStatuses statuses) {
        this.updates = updates;
        this.statuses = statuses;
    }

    /**
     * {@code {"state": "Ready"}}, or Retry / Rejected / Pending with a {@code message} (Retry may say
     * {@code requeueAfterSeconds}); answers the workload's status.
     */
    @PutMapping(path = "/{check}", consumes = "application/json")
    public WorkloadStatus set(@PathVariable String namespace, @PathVariable String name, @PathVariable String check,
                              @RequestBody AdmissionCheckUpdates.CheckUpdate update, Caller caller) {
        return statuses.of(updates.set(namespace, name, check, update, caller.name()));
    }
}
