package dev.platform.scheduler.config;

import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.workload.QueueConfiguration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The configuration as submissions read it, from the tables this feature owns. {@link #asOfNow()} keeps what it
 * read since the configuration's generation last changed: every statement that writes one of the tables a
 * submission reads draws a new generation (a trigger, whoever writes), and what is read after the generation was
 * looked up is at least as new as it. A submission then costs one lookup of the generation instead of a statement
 * for each thing it reads.
 */
@Component
class ConfiguredQueues implements QueueConfiguration {

    private final JdbcClient jdbc;
    private final ClusterQueueCapacity capacity;
    private volatile Remembered remembered = new Remembered(-1);

    ConfiguredQueues(JdbcClient jdbc, ClusterQueueCapacity capacity) {
        this.jdbc = jdbc;
        this.capacity = capacity;
    }

    @Override
    public QueueConfiguration asOfNow() {
        long change = jdbc.sql("SELECT coalesce((SELECT value FROM configuration_generation), 0)")
                .query(Long.class).single();
        Remembered current = remembered;
        if (current.change != change) {
            current = new Remembered(change);
            remembered = current;
        }
        return current;
    }

    @Override
    public QueueConfiguration asLastRead() {
        return remembered;
    }

    /**
     * What was read in configuration generation {@code change}: the reads a submission makes of every queue, from
     * memory; the others (rare: a workload that names no queue) from the tables.
     */
    private final class Remembered implements QueueConfiguration {

        private final long change;
        private final Map<String, Optional<String>> clusterQueues = new ConcurrentHashMap<>();
        private final Map<String, Set<String>> covered = new ConcurrentHashMap<>();
        private final Map<String, Map<FlavorResource, Long>> capacities = new ConcurrentHashMap<>();
        private final Map<String, Optional<Integer>> priorityValues = new ConcurrentHashMap<>();
        private volatile Optional<PriorityClassValue> globalDefault;

        Remembered(long change) {
            this.change = change;
        }

        @Override
        public QueueConfiguration asOfNow() {
            return this;
        }

        @Override
        public QueueConfiguration asLastRead() {
            return this;
        }

        @Override
        public Optional<String> clusterQueueOf(String namespace, String localQueue) {
            return clusterQueues.computeIfAbsent(namespace + "/" + localQueue,
                    k -> ConfiguredQueues.this.clusterQueueOf(namespace, localQueue));
        }

        @Override
        public boolean localQueueExists(String namespace, String localQueue) {
            return ConfiguredQueues.this.localQueueExists(namespace, localQueue);
        }

        @Override
        public List<String> localQueueNames(String namespace, int limit) {
            return ConfiguredQueues.this.localQueueNames(namespace, limit);
        }

        @Override
        public Optional<String> namespaceLabel(String namespace, String label) {
            return ConfiguredQueues.this.namespaceLabel(namespace, label);
        }

        @Override
        public Set<String> coveredResources(String clusterQueue) {
            return covered.computeIfAbsent(clusterQueue, ConfiguredQueues.this::coveredResources);
        }

        @Override
        public Map<FlavorResource, Long> capacity(String clusterQueue) {
            return capacities.computeIfAbsent(clusterQueue, ConfiguredQueues.this::capacity);
        }

        @Override
        public Optional<Integer> priorityValue(String kind, String name) {
            return priorityValues.computeIfAbsent(kind + "/" + name,
                    k -> ConfiguredQueues.this.priorityValue(kind, name));
        }

        @Override
        public Optional<PriorityClassValue> globalDefaultPriorityClass() {
            Optional<PriorityClassValue> known = globalDefault;
            if (known == null) {
                known = ConfiguredQueues.this.globalDefaultPriorityClass();
                globalDefault = known;
            }
            return known;
        }
    }

    @Override
    public Optional<String> clusterQueueOf(String namespace, String localQueue) {
        return jdbc.sql("SELECT cluster_queue FROM local_queue WHERE namespace = ? AND name = ?")
                .params(namespace, localQueue).query(String.class).optional();
    }

    @Override
    public boolean localQueueExists(String namespace, String localQueue) {
        return jdbc.sql("SELECT count(*) FROM local_queue WHERE namespace = ? AND name = ?")
                .params(namespace, localQueue).query(Long.class).single() > 0;
    }

    @Override
    public List<String> localQueueNames(String namespace, int limit) {
        return jdbc.sql("SELECT name FROM local_queue WHERE namespace = ? ORDER BY name LIMIT ?")
                .params(namespace, limit).query(String.class).list();
    }

    @Override
    public Optional<String> namespaceLabel(String namespace, String label) {
        return jdbc.sql("SELECT labels ->> ? FROM namespace WHERE name = ?")
                .params(label, namespace).query(String.class).optional();
    }

    @Override
    public Set<String> coveredResources(String clusterQueue) {
        return Collections.unmodifiableSet(new TreeSet<>(
                jdbc.sql("SELECT DISTINCT resource FROM cluster_queue_quota WHERE cluster_queue = ?")
                        .param(clusterQueue).query(String.class).list()));
    }

    @Override
    public Map<FlavorResource, Long> capacity(String clusterQueue) {
        return Collections.unmodifiableMap(capacity.of(clusterQueue));
    }

    @Override
    public Optional<Integer> priorityValue(String kind, String name) {
        return jdbc.sql("SELECT value FROM priority_class WHERE kind = ? AND name = ?")
                .params(kind, name).query(Integer.class).optional();
    }

    @Override
    public Optional<PriorityClassValue> globalDefaultPriorityClass() {
        return jdbc.sql("SELECT name, value FROM priority_class WHERE kind = 'PriorityClass' AND global_default")
                .query((rs, i) -> new PriorityClassValue(rs.getString("name"), rs.getInt("value")))
                .optional();
    }
}
