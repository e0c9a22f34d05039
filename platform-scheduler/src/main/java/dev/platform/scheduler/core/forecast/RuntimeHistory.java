package dev.platform.scheduler.core.forecast;

import dev.platform.scheduler.core.model.Workload;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runtimes of finished workloads, the most recent {@code samplesPerKey} per {@link RuntimeKey} and per
 * ClusterQueue. A workload's estimate is, in this order: its key's history, its ClusterQueue's history (each
 * trusted from {@code minSamples} runtimes on), capped by its maximum execution time when it has one; else that
 * maximum alone; else unknown.
 * <p>
 * One thread records (the scheduling loop, as workloads finish) while another estimates (the forecast): each
 * key's samples are an immutable array replaced on every record.
 */
public final class RuntimeHistory implements RuntimeModel {

    private final int samplesPerKey;
    private final int minSamples;
    private final Map<RuntimeKey, Samples> byKey = new ConcurrentHashMap<>();
    private final Map<String, Samples> byClusterQueue = new ConcurrentHashMap<>();

    /** Runtimes in the order they were recorded, and the same sorted; never changed once built. */
    private record Samples(long[] recent, long[] sorted) {
    }

    public RuntimeHistory(int samplesPerKey, int minSamples) {
        if (minSamples < 1 || samplesPerKey < minSamples) {
            throw new IllegalArgumentException("need 1 <= minSamples <= samplesPerKey");
        }
        this.samplesPerKey = samplesPerKey;
        this.minSamples = minSamples;
    }

    /** {@code workload} held quota in {@code clusterQueue} for {@code runtime} and finished. */
    public void record(Workload workload, String clusterQueue, Duration runtime) {
        long millis = Math.max(0, runtime.toMillis());
        byKey.compute(RuntimeKey.of(workload), (k, samples) -> appended(samples, millis));
        if (clusterQueue != null) {
            byClusterQueue.compute(clusterQueue, (k, samples) -> appended(samples, millis));
        }
    }

    /** Oldest first; the oldest goes when the samples are full. */
    private Samples appended(Samples samples, long millis) {
        long[] recent = samples == null ? new long[0] : samples.recent();
        int keep = Math.min(recent.length, samplesPerKey - 1);
        long[] next = Arrays.copyOfRange(recent, recent.length - keep, recent.length + 1);
        next[keep] = millis;
        long[] sorted = next.clone();
        Arrays.sort(sorted);
        return new Samples(next, sorted);
    }

    @Override
    public RuntimeEstimate estimate(Workload workload, String clusterQueue) {
        Duration limit = workload.maximumExecutionTime();
        Samples own = byKey.get(RuntimeKey.of(workload));
        if (own != null && own.sorted().length >= minSamples) {
            return RuntimeEstimate.fromSortedHistory(RuntimeBasis.LocalQueueHistory, own.sorted(), limit);
        }
        Samples queue = clusterQueue == null ? null : byClusterQueue.get(clusterQueue);
        if (queue != null && queue.sorted().length >= minSamples) {
            return RuntimeEstimate.fromSortedHistory(RuntimeBasis.ClusterQueueHistory, queue.sorted(), limit);
        }
        return limit == null ? RuntimeEstimate.unknown() : RuntimeEstimate.maximumOnly(limit);
    }
}
