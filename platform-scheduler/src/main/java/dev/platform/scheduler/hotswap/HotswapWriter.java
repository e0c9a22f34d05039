package dev.platform.scheduler.hotswap;

import dev.platform.api.agent.CommandPayload;
import dev.platform.api.agent.CommandType;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.ResourceFlavorManifest;
import dev.platform.api.reason.EvictionReason;
import dev.platform.api.reason.PreemptionReason;
import dev.platform.scheduler.cluster.AgentCommandStore;
import dev.platform.scheduler.cluster.Evictions;
import dev.platform.scheduler.cluster.NodePoolPlacement;
import dev.platform.scheduler.config.ConfigStore;
import dev.platform.scheduler.config.ObjectKey;
import dev.platform.scheduler.core.placement.PoolKey;
import dev.platform.scheduler.core.placement.SlicePlacement;
import dev.platform.scheduler.leadership.EpochFence;
import dev.platform.scheduler.preemption.PreemptionEvent;
import dev.platform.scheduler.preemption.PreemptionStore;
import dev.platform.scheduler.workload.StoredAdmission;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStore;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Commits one hotswap in one transaction: victims evicted and requeued at
 * their place, the disrupted workload re-placed with its quota kept and a restart counted (or
 * failed past {@code maxRestarts}, or requeued when no replacement exists), the hotswap event,
 * the preemption events, and the agent commands.
 */
@Component
public class HotswapWriter {

    /** A stale restart is worse than none: the agent refuses it after this long. */
    public static final Duration RESTART_EXPIRY = Duration.ofMinutes(2);

    private final WorkloadStore workloads;
    private final ConfigStore config;
    private final JsonMapper json;
    private final WorkloadTransitions transitions;
    private final PreemptionStore preemptions;
    private final HotswapStore hotswaps;
    private final AgentCommandStore commands;
    private final EpochFence fence;
    private final Evictions evictions;

    public HotswapWriter(WorkloadStore workloads, ConfigStore config, JsonMapper json, WorkloadTransitions transitions, PreemptionStore preemptions,
                  HotswapStore hotswaps, AgentCommandStore commands, EpochFence fence, Evictions evictions) {
        this.evictions = evictions;
        this.workloads = workloads;
        this.config = config;
        this.json = json;
        this.transitions = transitions;
        this.preemptions = preemptions;
        this.hotswaps = hotswaps;
        this.commands = commands;
        this.fence = fence;
    }

    /** What the disruption looked like when it was detected. */
    public record Disruption(String cluster, String pool, List<String> nodes, String reason, Instant detectedAt) {
    }

    /** The disrupted workload's fate. */
    public enum Outcome { Recovering, Failed, Requeued }

    /** What landed, for the loop to mirror in its state; empty versions mean a race was lost. */
    public record Result(Outcome outcome, Map<String, Long> newVersions, List<String> victimsEvicted, HotswapEvent event) {
    }

    @Transactional
    public Result commit(long epoch, Disruption disruption, WorkloadRow disrupted, SlicePlacement.Replacement replacement,
                         List<WorkloadRow> victims, Instant now) {
        fence.check(epoch);
        transitions.lockChanges();
        Map<String, Long> versions = new HashMap<>();
        List<String> evicted = new ArrayList<>();
        String disruptedUid = disrupted.uid().toString();
        String message = "Preempted to accommodate a workload (UID: " + disruptedUid + ") due to hotswap after node pool "
                + disruption.cluster() + "/" + disruption.pool() + " failed (" + disruption.reason()
                + "); preemptor path: /" + disrupted.clusterQueue();
        // Past maxRestarts the workload fails anyway: nobody is preempted for a restart that won't happen.
        boolean exhausted = disrupted.maxRestarts() != null && disrupted.restarts() + 1 > disrupted.maxRestarts();
        List<WorkloadRow> toEvict = exhausted || replacement == null ? List.of() : victims;
        Map<String, Long> landed = evictions.evict(toEvict.stream().map(v -> new WorkloadTransitions.Eviction(
                v.uid(), v.version(), EvictionReason.Preempted, message + "; preemptee path: /" + v.clusterQueue(),
                PreemptionReason.Hotswap)).toList(), now);
        versions.putAll(landed);
        List<WorkloadRow> evictedVictims = toEvict.stream().filter(v -> landed.containsKey(v.uid().toString())).toList();
        evictedVictims.forEach(v -> evicted.add(v.uid().toString()));
        preemptions.append(evictedVictims.stream().map(v -> new PreemptionEvent(0, now, PreemptionReason.Hotswap.name(),
                message + "; preemptee path: /" + v.clusterQueue(), party(disrupted), party(v))).toList(), epoch);

        Outcome outcome;
        List<String> replacementPools = List.of();
        if (replacement == null) {
            outcome = Outcome.Requeued;
            versions.putAll(requeue(disrupted, now, disruption));
        } else if (exhausted) {
            outcome = Outcome.Failed;
            versions.putAll(fail(disrupted, now));
        } else {
            outcome = Outcome.Recovering;
            replacementPools = replacement.placement().allPools().stream().map(PoolKey::pool).toList();
            versions.putAll(restart(disrupted, replacement.placement(), now, disruption));
        }
        HotswapEvent event = new HotswapEvent(0, disruption.cluster(), disruption.pool(), disruption.nodes(),
                disruption.reason(), hotswapParty(disrupted),
                victims.stream().filter(v -> evicted.contains(v.uid().toString())).map(HotswapWriter::hotswapParty)
                        .toList(),
                replacementPools, switch (outcome) {
                    case Recovering -> "InProgress";
                    case Failed -> "Failed";
                    case Requeued -> "Requeued";
                }, disruption.detectedAt(), now, evicted.isEmpty() ? now : null, null, null);
        long id = hotswaps.record(event);
        return new Result(outcome, versions, evicted, hotswaps.find(id).orElse(event));
    }

    /** Re-placed on the new pools with its quota kept; Admitted again until the agent reports it running. */
    private Map<String, Long> restart(WorkloadRow w, SlicePlacement.Placement placement, Instant now,
                                      Disruption disruption) {
        Map<String, List<String>> pools = NodePoolPlacement.poolNames(placement);
        StoredAdmission admission = new StoredAdmission(w.admission().clusterQueue(),
                w.admission().podSetAssignments().stream().map(a -> new StoredAdmission.PodSetAssignment(a.name(),
                        a.count(), a.flavors(), a.resourceUsage(), pools.getOrDefault(a.name(), List.of()))).toList());
        Long version = transitions.restart(w.uid(), w.version(), json.writeValueAsString(admission),
                placement.cluster(), now, "Node pool " + disruption.cluster() + "/" + disruption.pool() + " failed ("
                        + disruption.reason() + "); restarting on "
                        + placement.allPools().stream().map(PoolKey::toString).collect(Collectors.joining(", "))
                        + " (restart " + (w.restarts() + 1)
                        + (w.maxRestarts() == null ? "" : " of at most " + w.maxRestarts()) + ")")
                .orElse(null);
        if (version == null) {
            return Map.of();
        }
        String manifest = workloads.manifest(w.uid()).orElseThrow();
        String flavor = admission.podSetAssignments().stream().flatMap(a -> a.flavors().values().stream())
                .findFirst().orElse(null);
        Map<String, String> nodeLabels = flavor == null ? Map.of()
                : config.find(Kind.RESOURCE_FLAVOR, ObjectKey.cluster(flavor), ResourceFlavorManifest.class)
                .map(ResourceFlavorManifest::nodeLabels).orElse(Map.of());
        // Moved to another cluster (no room left in its own): its JobSet there goes.
        commands.deleteElsewhere(Map.of(w.uid(), placement.cluster()));
        commands.enqueue(placement.cluster(), CommandType.RESTART, w.uid(), w.namespace(), w.name(),
                new CommandPayload(json.readTree(manifest), w.priorityClassName(),
                        placement.allPools().stream().map(PoolKey::pool).toList(), nodeLabels, flavor),
                now.plus(RESTART_EXPIRY));
        return Map.of(w.uid().toString(), version);
    }

    /** No replacement: back in its queue at its old place, quota released (Kueue's NodeFailures eviction). */
    private Map<String, Long> requeue(WorkloadRow w, Instant now, Disruption disruption) {
        String message = "Node pool " + disruption.cluster() + "/" + disruption.pool() + " failed ("
                + disruption.reason() + ") and no replacement could be found";
        return transitions.requeue(w.uid(), new WorkloadTransitions.Expected.AtVersion(w.version()), now,
                        EvictionReason.NodeFailures, message, "Requeued at its original position after a node failure")
                .map(r -> {
                    stop(w);
                    return Map.of(w.uid().toString(), r.version());
                }).orElse(Map.of());
    }

    /** Past {@code failurePolicy.maxRestarts}: Failed, as JobSet would fail it, quota released. */
    private Map<String, Long> fail(WorkloadRow w, Instant now) {
        return transitions.fail(w.uid(), new WorkloadTransitions.Expected.AtVersion(w.version()), now,
                        "MaxRestartsExceeded", "A node failure would need restart " + (w.restarts() + 1)
                                + " but failurePolicy.maxRestarts is " + w.maxRestarts())
                .map(f -> {
                    stop(w);
                    return Map.of(w.uid().toString(), f.version());
                }).orElse(Map.of());
    }

    /** The disrupted workload's pods leave the cluster (its quota went with its transition). */
    private void stop(WorkloadRow w) {
        if (w.cluster() != null) {
            commands.enqueue(w.cluster(), CommandType.STOP, w.uid(), w.namespace(), w.name(), null, null);
        }
    }

    private static PreemptionEvent.Party party(WorkloadRow row) {
        return new PreemptionEvent.Party(row.namespace(), row.name(), row.uid().toString(), row.clusterQueue(),
                row.priority());
    }

    private static HotswapEvent.Party hotswapParty(WorkloadRow row) {
        return new HotswapEvent.Party(row.namespace(), row.name(), row.uid().toString(), row.priority());
    }
}
