package dev.platform.scheduler.workload;

import dev.platform.api.identity.Caller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Workloads across namespaces ({@code kubectl get workloads -A}): the same filters and keyset pages as one
 * namespace's list, over the namespaces of the caller's teams (every namespace for Ops and Admin).
 */
@RestController
public class AllWorkloadsController {

    private final WorkloadStore store;
    private final WorkloadStatuses statuses;

    public AllWorkloadsController(WorkloadStore store, WorkloadStatuses statuses) {
        this.store = store;
        this.statuses = statuses;
    }

    @GetMapping(path = "/api/v1/workloads", produces = "application/json")
    public WorkloadController.WorkloadPage list(@RequestParam(required = false) String state,
                                                @RequestParam(required = false) String queue,
                                                @RequestParam(required = false) String cursor,
                                                @RequestParam(defaultValue = "100") int limit, Caller caller) {
        return WorkloadController.page(store, statuses, caller.visibleNamespaces().orElse(null), state, queue, cursor,
                limit);
    }
}
