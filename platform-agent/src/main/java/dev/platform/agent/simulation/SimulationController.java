package dev.platform.agent.simulation;

import dev.platform.agent.cluster.Cluster;
import dev.platform.agent.cluster.ClusterProvisioningRequest;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

/**
 * Fault injection on the simulated cluster: the demo's and load tests' way to break a slice; and what the cluster
 * runs, for a test that checks it against the platform's records from outside the agent's process.
 */
@RestController
@RequestMapping("/simulation")
@ConditionalOnProperty(name = "platform.agent.mode", havingValue = "simulated")
class SimulationController {

    private final SimulatedCluster cluster;

    SimulationController(Cluster cluster) {
        this.cluster = (SimulatedCluster) cluster;
    }

    @PostMapping("/nodepools/{pool}/fail")
    ResponseEntity<Void> fail(@PathVariable String pool) {
        if (!cluster.hasPool(pool)) {
            return ResponseEntity.notFound().build();
        }
        cluster.failPool(pool);
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/nodepools/{pool}/recover")
    ResponseEntity<Void> recover(@PathVariable String pool) {
        if (!cluster.hasPool(pool)) {
            return ResponseEntity.notFound().build();
        }
        cluster.recoverPool(pool);
        return ResponseEntity.noContent().build();
    }

    /**
     * A fault on a ProvisioningRequest: {@code fail} (condition Failed), {@code expire} (BookingExpired) or
     * {@code revoke} (CapacityRevoked: its node pools go and their pods fail).
     */
    @PostMapping("/provisioningrequests/{namespace}/{name}/{fault}")
    ResponseEntity<Void> provisioningFault(@PathVariable String namespace, @PathVariable String name,
                                           @PathVariable String fault) {
        boolean found = switch (fault) {
            case "fail" -> cluster.failRequest(namespace, name);
            case "expire" -> cluster.expireBooking(namespace, name);
            case "revoke" -> cluster.revokeCapacity(namespace, name);
            default -> throw new ResponseStatusException(HttpStatus.NOT_FOUND,
                    "no fault " + fault + ": fail, expire or revoke");
        };
        return found ? ResponseEntity.noContent().build() : ResponseEntity.notFound().build();
    }

    /** The ProvisioningRequests in the cluster, with their conditions. */
    @GetMapping(path = "/provisioningrequests", produces = "application/json")
    List<ClusterProvisioningRequest> provisioningRequests() {
        return cluster.provisioningRequests();
    }

    @GetMapping(path = "/jobsets", produces = "application/json")
    List<SimulatedCluster.JobSetState> jobSets() {
        return cluster.jobSetStates();
    }
}
