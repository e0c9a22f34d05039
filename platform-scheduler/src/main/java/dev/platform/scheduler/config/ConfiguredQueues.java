package dev.platform.scheduler.config;

import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.workload.QueueConfiguration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** The configuration as submissions read it, from the tables this feature owns. */
@Component
class ConfiguredQueues implements QueueConfiguration {

    private final JdbcClient jdbc;
    private final ClusterQueueCapacity capacity;

    ConfiguredQueues(JdbcClient jdbc, ClusterQueueCapacity capacity) {
        this.jdbc = jdbc;
        this.capacity = capacity;
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
        return new TreeSet<>(jdbc.sql("SELECT DISTINCT resource FROM cluster_queue_quota WHERE cluster_queue = ?")
                .param(clusterQueue).query(String.class).list());
    }

    @Override
    public Map<FlavorResource, Long> capacity(String clusterQueue) {
        return capacity.of(clusterQueue);
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
