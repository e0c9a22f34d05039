package dev.platform.agent.provisioning;

import dev.platform.agent.cluster.Cluster;
import dev.platform.agent.cluster.ClusterProvisioningRequest;
import dev.platform.agent.scheduler.SchedulerClient;
import dev.platform.agent.scheduler.SchedulerUnavailableException;
import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.ProvisioningRequestReport;
import dev.platform.api.agent.ProvisioningRequestSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's part of Kueue's ProvisioningRequest admission check, while this replica leads: every
 * {@link #INTERVAL} the ProvisioningRequests the scheduler lists are made to exist in the cluster (with their
 * PodTemplates), those the platform made and the scheduler no longer lists are deleted (the workload finished, was
 * evicted, or went on to its next attempt), and the conditions of every request the platform manages go back to the
 * scheduler, which moves the admission checks. Posted when they change, and with every heartbeat so that a scheduler
 * that restarted hears them again.
 */
public class ProvisioningSync implements AutoCloseable {

    /** How often the requests are reconciled: the delay between a check's capacity and the workload's start. */
    public static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Logger log = LoggerFactory.getLogger(ProvisioningSync.class);

    private final SchedulerClient scheduler;
    private final Cluster cluster;
    private final Clock clock;
    private final Duration heartbeat;
    private final BooleanSupplier ready;
    private ScheduledExecutorService executor;
    private volatile Map<String, ClusterProvisioningRequest> known = Map.of();
    private List<ProvisioningRequestReport> posted;
    private Instant postedAt = Instant.MIN;
    private boolean servedBefore = true;

    /** @param ready whether the cluster's caches synced and the scheduler hears this replica */
    public ProvisioningSync(SchedulerClient scheduler, Cluster cluster, Clock clock, Duration heartbeat,
                            BooleanSupplier ready) {
        this.scheduler = scheduler;
        this.cluster = cluster;
        this.clock = clock;
        this.heartbeat = heartbeat;
        this.ready = ready;
    }

    public synchronized void start() {
        if (executor == null) {
            executor = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "agent-provisioning");
                thread.setDaemon(true);
                return thread;
            });
            executor.scheduleWithFixedDelay(this::syncQuietly, 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    public synchronized void stop() {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
            posted = null;
        }
    }

    /**
     * The annotations that pin a workload's pods to the capacity provisioned for it (Kueue's podSetUpdates of a
     * Ready check): the request they consume and its class, under the cluster autoscaler's current and older
     * names; none when no request of the workload is provisioned.
     */
    public Map<String, String> podAnnotations(String workloadUid) {
        Optional<ClusterProvisioningRequest> provisioned = known.values().stream()
                .filter(r -> workloadUid.equals(r.workloadUid()) && r.provisioned())
                .max((a, b) -> Integer.compare(a.attempt(), b.attempt()));
        if (provisioned.isEmpty()) {
            return Map.of();
        }
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(AgentProtocol.CONSUME_PROVISIONING_REQUEST_ANNOTATION, provisioned.get().name());
        annotations.put(AgentProtocol.PROVISIONING_CLASS_ANNOTATION, provisioned.get().provisioningClassName());
        annotations.put(AgentProtocol.LEGACY_CONSUME_PROVISIONING_REQUEST_ANNOTATION, provisioned.get().name());
        annotations.put(AgentProtocol.LEGACY_PROVISIONING_CLASS_ANNOTATION, provisioned.get().provisioningClassName());
        return annotations;
    }

    private void syncQuietly() {
        try {
            if (ready.getAsBoolean()) {
                sync();
            }
        } catch (SchedulerUnavailableException e) {
            log.debug("ProvisioningRequests not synchronised: {}", e.getMessage());
        } catch (RuntimeException e) {
            log.warn("ProvisioningRequests not synchronised; trying again in {}", INTERVAL, e);
        }
    }

    /** One reconciliation: create what is missing, delete what is no longer wanted, report the conditions. */
    public void sync() throws SchedulerUnavailableException {
        Optional<List<ProvisioningRequestSpec>> listed = scheduler.provisioningRequests();
        if (listed.isEmpty()) {
            if (servedBefore) {
                log.info("the scheduler serves no ProvisioningRequests (a version before admission checks)");
                servedBefore = false;
            }
            return;
        }
        servedBefore = true;
        Map<String, ClusterProvisioningRequest> existing = byKey(cluster.provisioningRequests());
        Map<String, ProvisioningRequestSpec> wanted = new LinkedHashMap<>();
        listed.get().forEach(r -> wanted.put(r.namespace() + "/" + r.name(), r));
        boolean changed = false;
        for (ProvisioningRequestSpec request : wanted.values()) {
            if (!existing.containsKey(request.namespace() + "/" + request.name())) {
                cluster.createProvisioningRequest(request);
                log.info("ProvisioningRequest {}/{} created (class {}, attempt {}) for workload {}",
                        request.namespace(), request.name(), request.provisioningClassName(), request.attempt(),
                        request.workloadUid());
                changed = true;
            }
        }
        for (ClusterProvisioningRequest request : existing.values()) {
            if (!wanted.containsKey(request.key())) {
                cluster.deleteProvisioningRequest(request);
                log.info("ProvisioningRequest {} deleted: workload {} no longer needs it", request.key(),
                        request.workloadUid());
                changed = true;
            }
        }
        if (changed) {
            existing = byKey(cluster.provisioningRequests());
        }
        known = existing;
        List<ProvisioningRequestReport> reports = existing.values().stream().map(ClusterProvisioningRequest::report)
                .toList();
        Instant now = clock.instant();
        if (!reports.equals(posted) || !now.isBefore(postedAt.plus(heartbeat))) {
            scheduler.postProvisioningStatus(reports);
            posted = reports;
            postedAt = now;
        }
    }

    private static Map<String, ClusterProvisioningRequest> byKey(List<ClusterProvisioningRequest> requests) {
        Map<String, ClusterProvisioningRequest> out = new LinkedHashMap<>();
        requests.forEach(r -> out.put(r.key(), r));
        return out;
    }

    @Override
    public void close() {
        stop();
    }
}
