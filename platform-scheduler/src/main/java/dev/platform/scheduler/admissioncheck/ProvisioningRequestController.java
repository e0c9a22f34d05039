package dev.platform.scheduler.admissioncheck;

import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.ProvisioningRequestReport;
import dev.platform.api.agent.ProvisioningRequestSpec;
import dev.platform.scheduler.web.ClusterNames;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

/**
 * The agent protocol's ProvisioningRequest endpoints (docs/agent.md): what a cluster should hold, and the conditions
 * its agent reports. Authenticated as every agent endpoint, by the cluster's agent token.
 */
@RestController
class ProvisioningRequestController {

    private final ProvisioningRequests requests;

    ProvisioningRequestController(ProvisioningRequests requests) {
        this.requests = requests;
    }

    @GetMapping(path = AgentProtocol.PROVISIONING_REQUESTS_PATH, produces = "application/json")
    List<ProvisioningRequestSpec> desired(@PathVariable String cluster) {
        ClusterNames.require(cluster);
        return requests.desired(cluster);
    }

    @PostMapping(path = AgentProtocol.PROVISIONING_REQUEST_STATUS_PATH, consumes = "application/json")
    ResponseEntity<Void> status(@PathVariable String cluster, @RequestBody List<ProvisioningRequestReport> reports) {
        ClusterNames.require(cluster);
        requests.record(cluster, reports);
        return ResponseEntity.noContent().build();
    }
}
