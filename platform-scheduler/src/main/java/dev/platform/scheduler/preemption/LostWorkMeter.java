package dev.platform.scheduler.preemption;

import dev.platform.api.manifest.PreemptionAnnotations;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Measures the work preemption victims lose, from their stored rows and the last checkpoint their manifests name
 * ({@code platform.dev/last-checkpoint}), counting only the resources of {@code platform.scheduler.lost-work.resources},
 * and adds it to {@code platform_preemption_lost_work_seconds_total{cluster_queue, reason}}.
 */
@Component
public class LostWorkMeter {

    private final WorkloadStore workloads;
    private final Set<String> resources;
    private final MeterRegistry registry;

    public LostWorkMeter(WorkloadStore workloads,
                         @Value("${platform.scheduler.lost-work.resources:google.com/tpu,nvidia.com/gpu}") List<String> resources,
                         MeterRegistry registry) {
        this.workloads = workloads;
        this.resources = Set.copyOf(resources);
        this.registry = registry;
    }

    /** The lost work of each victim preempted at {@code now}, read before its eviction clears its admission. */
    public Map<UUID, LostWork> of(Collection<UUID> victims, Instant now) {
        Map<UUID, LostWork> lost = new HashMap<>();
        if (victims.isEmpty()) {
            return lost;
        }
        Map<UUID, WorkloadRow> rows = workloads.findAll(victims);
        Map<UUID, String> checkpoints = workloads.annotations(victims, PreemptionAnnotations.LAST_CHECKPOINT);
        rows.forEach((uid, row) -> {
            LostWork work = LostWork.of(row.podSets(), row.admittedAt(), checkpoint(checkpoints.get(uid)), now, resources);
            if (work != null) {
                lost.put(uid, work);
            }
        });
        return lost;
    }

    /** Adds the recorded events' lost work to the counter, by the victim's ClusterQueue and the reason. */
    public void count(List<PreemptionEvent> events) {
        for (PreemptionEvent e : events) {
            if (e.lostWork() != null && e.lostWork().total() > 0) {
                Counter.builder("platform.preemption.lost.work.seconds")
                        .description("Resource-seconds of work lost by preemption victims since their last checkpoint")
                        .baseUnit("seconds")
                        .tag("cluster_queue", e.victim().clusterQueue() == null ? "" : e.victim().clusterQueue())
                        .tag("reason", e.reason())
                        .register(registry).increment(e.lostWork().total());
            }
        }
    }

    /** Checked at submission; a value that no longer parses counts as no checkpoint. */
    private static Instant checkpoint(String text) {
        if (text == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
