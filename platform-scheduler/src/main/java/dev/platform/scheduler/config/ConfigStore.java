package dev.platform.scheduler.config;

import dev.platform.api.identity.Caller;
import dev.platform.api.manifest.AdmissionCheckManifest;
import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.CohortManifest;
import dev.platform.api.manifest.ConfigManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.api.manifest.NamespaceManifest;
import dev.platform.api.manifest.PriorityClassManifest;
import dev.platform.api.manifest.ProvisioningRequestConfigManifest;
import dev.platform.api.manifest.ResourceFlavorManifest;
import dev.platform.api.manifest.ResourceGroup;
import dev.platform.api.manifest.TeamManifest;
import dev.platform.api.manifest.WorkloadPriorityClassManifest;
import dev.platform.scheduler.identity.TeamStore;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Configuration objects in PostgreSQL. Each object is a row with its decoded spec (jsonb) plus
 * the columns queries need; quotas are also kept as rows so usage can be computed set-wise.
 * A Namespace is all labels: its row keeps them in a column and its spec is built from the row.
 * Teams are entities of the identity model ({@link TeamStore}); this store hands them over.
 */
@Repository
public class ConfigStore {

    private final JdbcTemplate jdbcTemplate;
    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final TeamStore teams;

    public ConfigStore(JdbcTemplate jdbcTemplate, JsonMapper json, TeamStore teams) {
        this.jdbcTemplate = jdbcTemplate;
        this.jdbc = JdbcClient.create(jdbcTemplate);
        this.json = json;
        this.teams = teams;
    }

    /** Serialises scheduling-relevant state the same way for storage and comparison. */
    String specJson(ConfigManifest manifest) {
        return json.writeValueAsString(manifest);
    }

    boolean sameSpec(String storedJson, ConfigManifest manifest) {
        return json.readTree(storedJson).equals(json.valueToTree(manifest));
    }

    /** The stored specs of the given objects of one kind, in one query. */
    Map<ObjectKey, String> currentSpecs(Kind kind, Collection<ObjectKey> keys) {
        Map<ObjectKey, String> specs = new HashMap<>();
        if (keys.isEmpty()) {
            return specs;
        }
        String[] names = keys.stream().map(ObjectKey::name).distinct().toArray(String[]::new);
        switch (kind) {
            case TEAM -> teams.find(List.of(names)).forEach((name, team) -> specs.put(ObjectKey.cluster(name), specJson(team)));
            case LOCAL_QUEUE -> jdbc.sql("SELECT namespace, name, spec::text AS spec FROM local_queue WHERE name = ANY(?)")
                    .param(names)
                    .query((rs, i) -> Map.entry(new ObjectKey(rs.getString("namespace"), rs.getString("name")),
                            rs.getString("spec")))
                    .list().forEach(e -> specs.put(e.getKey(), e.getValue()));
            case PRIORITY_CLASS, WORKLOAD_PRIORITY_CLASS ->
                    jdbc.sql("SELECT name, spec::text AS spec FROM priority_class WHERE kind = ? AND name = ANY(?)")
                            .param(kind.manifestName()).param(names)
                            .query((rs, i) -> Map.entry(ObjectKey.cluster(rs.getString("name")), rs.getString("spec")))
                            .list().forEach(e -> specs.put(e.getKey(), e.getValue()));
            default -> jdbc.sql("SELECT name, " + spec(kind) + "::text AS spec FROM " + table(kind)
                            + " WHERE name = ANY(?)")
                    .param(names)
                    .query((rs, i) -> Map.entry(ObjectKey.cluster(rs.getString("name")), rs.getString("spec")))
                    .list().forEach(e -> specs.put(e.getKey(), e.getValue()));
        }
        specs.keySet().retainAll(keys);
        return specs;
    }

    void insert(ConfigManifest manifest) {
        String spec = specJson(manifest);
        if (manifest instanceof ResourceFlavorManifest f) {
            jdbc.sql("INSERT INTO resource_flavor (name, spec) VALUES (?, ?::jsonb)")
                    .params(f.name(), spec).update();
        } else if (manifest instanceof CohortManifest c) {
            jdbc.sql("INSERT INTO cohort (name, parent_name, spec) VALUES (?, ?, ?::jsonb)")
                    .params(c.name(), c.parentName(), spec).update();
            insertQuotas("cohort_quota", "cohort", c.name(), c.resourceGroups());
        } else if (manifest instanceof ClusterQueueManifest q) {
            jdbc.sql("""
                    INSERT INTO cluster_queue (name, cohort, queueing_strategy, stop_policy, spec)
                    VALUES (?, ?, ?, ?, ?::jsonb)""")
                    .params(q.name(), q.cohort(), q.queueingStrategy().name(), q.stopPolicy().name(), spec)
                    .update();
            insertQuotas("cluster_queue_quota", "cluster_queue", q.name(), q.resourceGroups());
        } else if (manifest instanceof LocalQueueManifest l) {
            jdbc.sql("""
                    INSERT INTO local_queue (namespace, name, cluster_queue, stop_policy, spec)
                    VALUES (?, ?, ?, ?, ?::jsonb)""")
                    .params(l.namespace(), l.name(), l.clusterQueue(), l.stopPolicy().name(), spec).update();
        } else if (manifest instanceof PriorityClassManifest p) {
            jdbc.sql("""
                    INSERT INTO priority_class (kind, name, value, global_default, preemption_policy, spec)
                    VALUES ('PriorityClass', ?, ?, ?, ?, ?::jsonb)""")
                    .params(p.name(), p.value(), p.globalDefault(), p.preemptionPolicy(), spec).update();
        } else if (manifest instanceof WorkloadPriorityClassManifest p) {
            jdbc.sql("""
                    INSERT INTO priority_class (kind, name, value, spec)
                    VALUES ('WorkloadPriorityClass', ?, ?, ?::jsonb)""")
                    .params(p.name(), p.value(), spec).update();
        } else if (manifest instanceof NamespaceManifest n) {
            jdbc.sql("INSERT INTO namespace (name, labels) VALUES (?, ?::jsonb)")
                    .params(n.name(), json.writeValueAsString(n.labels())).update();
        } else if (manifest instanceof TeamManifest t) {
            teams.insert(t);
        } else if (manifest instanceof AdmissionCheckManifest a) {
            jdbc.sql("INSERT INTO admission_check (name, controller_name, spec) VALUES (?, ?, ?::jsonb)")
                    .params(a.name(), a.controllerName(), spec).update();
        } else if (manifest instanceof ProvisioningRequestConfigManifest c) {
            jdbc.sql("INSERT INTO provisioning_request_config (name, spec) VALUES (?, ?::jsonb)")
                    .params(c.name(), spec).update();
        }
    }

    void update(ConfigManifest manifest) {
        String spec = specJson(manifest);
        if (manifest instanceof ResourceFlavorManifest f) {
            jdbc.sql("""
                    UPDATE resource_flavor SET spec = ?::jsonb, generation = generation + 1, updated_at = now()
                    WHERE name = ?""").params(spec, f.name()).update();
        } else if (manifest instanceof CohortManifest c) {
            jdbc.sql("""
                    UPDATE cohort SET parent_name = ?, spec = ?::jsonb, generation = generation + 1, updated_at = now()
                    WHERE name = ?""").params(c.parentName(), spec, c.name()).update();
            jdbc.sql("DELETE FROM cohort_quota WHERE cohort = ?").param(c.name()).update();
            insertQuotas("cohort_quota", "cohort", c.name(), c.resourceGroups());
        } else if (manifest instanceof ClusterQueueManifest q) {
            jdbc.sql("""
                    UPDATE cluster_queue SET cohort = ?, queueing_strategy = ?, stop_policy = ?, spec = ?::jsonb,
                           generation = generation + 1, updated_at = now()
                    WHERE name = ?""")
                    .params(q.cohort(), q.queueingStrategy().name(), q.stopPolicy().name(), spec, q.name())
                    .update();
            jdbc.sql("DELETE FROM cluster_queue_quota WHERE cluster_queue = ?").param(q.name()).update();
            insertQuotas("cluster_queue_quota", "cluster_queue", q.name(), q.resourceGroups());
        } else if (manifest instanceof LocalQueueManifest l) {
            jdbc.sql("""
                    UPDATE local_queue SET cluster_queue = ?, stop_policy = ?, spec = ?::jsonb,
                           generation = generation + 1, updated_at = now()
                    WHERE namespace = ? AND name = ?""")
                    .params(l.clusterQueue(), l.stopPolicy().name(), spec, l.namespace(), l.name()).update();
        } else if (manifest instanceof PriorityClassManifest p) {
            jdbc.sql("""
                    UPDATE priority_class SET value = ?, global_default = ?, preemption_policy = ?, spec = ?::jsonb,
                           generation = generation + 1, updated_at = now()
                    WHERE kind = 'PriorityClass' AND name = ?""")
                    .params(p.value(), p.globalDefault(), p.preemptionPolicy(), spec, p.name()).update();
        } else if (manifest instanceof WorkloadPriorityClassManifest p) {
            jdbc.sql("""
                    UPDATE priority_class SET value = ?, spec = ?::jsonb, generation = generation + 1, updated_at = now()
                    WHERE kind = 'WorkloadPriorityClass' AND name = ?""")
                    .params(p.value(), spec, p.name()).update();
        } else if (manifest instanceof NamespaceManifest n) {
            jdbc.sql("""
                    UPDATE namespace SET labels = ?::jsonb, generation = generation + 1, updated_at = now()
                    WHERE name = ?""").params(json.writeValueAsString(n.labels()), n.name()).update();
        } else if (manifest instanceof TeamManifest t) {
            teams.update(t);
        } else if (manifest instanceof AdmissionCheckManifest a) {
            jdbc.sql("""
                    UPDATE admission_check SET controller_name = ?, spec = ?::jsonb, generation = generation + 1,
                           updated_at = now()
                    WHERE name = ?""").params(a.controllerName(), spec, a.name()).update();
        } else if (manifest instanceof ProvisioningRequestConfigManifest c) {
            jdbc.sql("""
                    UPDATE provisioning_request_config SET spec = ?::jsonb, generation = generation + 1, updated_at = now()
                    WHERE name = ?""").params(spec, c.name()).update();
        }
    }

    /** Deletes an object; returns its spec as it was, or empty when there was none. */
    Optional<String> delete(Kind kind, ObjectKey key) {
        if (kind == Kind.TEAM) {
            return teams.delete(key.name()).map(this::specJson);
        }
        String sql = switch (kind) {
            case LOCAL_QUEUE -> "DELETE FROM local_queue WHERE namespace = :namespace AND name = :name RETURNING spec::text";
            case PRIORITY_CLASS, WORKLOAD_PRIORITY_CLASS ->
                    "DELETE FROM priority_class WHERE kind = :kind AND name = :name RETURNING spec::text";
            default -> "DELETE FROM " + table(kind) + " WHERE name = :name RETURNING " + spec(kind) + "::text";
        };
        JdbcClient.StatementSpec statement = jdbc.sql(sql).param("name", key.name());
        if (kind == Kind.LOCAL_QUEUE) {
            statement = statement.param("namespace", key.namespace());
        }
        if (kind == Kind.PRIORITY_CLASS || kind == Kind.WORKLOAD_PRIORITY_CLASS) {
            statement = statement.param("kind", kind.manifestName());
        }
        return statement.query(String.class).optional();
    }

    void audit(String actor, Kind kind, ObjectKey key, String action, String before, String after) {
        jdbc.sql("""
                INSERT INTO config_audit (actor, kind, namespace, name, action, spec_before, spec_after)
                VALUES (?, ?, ?, ?, ?, ?::jsonb, ?::jsonb)""")
                .params(actor, kind.manifestName(), key.namespace(), key.name(), action, before, after)
                .update();
    }

    /** The id of the latest configuration change (every apply and delete appends one); 0 before any. */
    public long latestChange() {
        return jdbc.sql("SELECT coalesce(max(id), 0) FROM config_audit").query(Long.class).single();
    }

    public <T extends ConfigManifest> List<T> list(Kind kind, Class<T> type) {
        if (kind == Kind.TEAM) {
            return teams.list().stream().map(type::cast).toList();
        }
        String sql = switch (kind) {
            case LOCAL_QUEUE -> "SELECT spec::text FROM local_queue ORDER BY namespace, name";
            case PRIORITY_CLASS, WORKLOAD_PRIORITY_CLASS ->
                    "SELECT spec::text FROM priority_class WHERE kind = '" + kind.manifestName() + "' ORDER BY name";
            default -> "SELECT " + spec(kind) + "::text FROM " + table(kind) + " ORDER BY name";
        };
        return jdbc.sql(sql).query(String.class).list().stream().map(s -> json.readValue(s, type)).toList();
    }

    public <T extends ConfigManifest> Optional<T> find(Kind kind, ObjectKey key, Class<T> type) {
        if (kind == Kind.TEAM) {
            return teams.find(key.name()).map(type::cast);
        }
        JdbcClient.StatementSpec statement = switch (kind) {
            case LOCAL_QUEUE -> jdbc.sql("SELECT spec::text FROM local_queue WHERE namespace = ? AND name = ?")
                    .params(key.namespace(), key.name());
            case PRIORITY_CLASS, WORKLOAD_PRIORITY_CLASS ->
                    jdbc.sql("SELECT spec::text FROM priority_class WHERE kind = ? AND name = ?")
                            .params(kind.manifestName(), key.name());
            default -> jdbc.sql("SELECT " + spec(kind) + "::text FROM " + table(kind) + " WHERE name = ?")
                    .param(key.name());
        };
        return statement.query(String.class).optional().map(s -> json.readValue(s, type));
    }

    /**
     * The names of the ClusterQueues {@code caller} sees: those their teams' LocalQueues point to; empty
     * for Ops and Admin, who see every queue.
     */
    public Optional<Set<String>> clusterQueuesVisibleTo(Caller caller) {
        return caller.visibleNamespaces().map(this::clusterQueuesReachableFrom);
    }

    /** The ClusterQueues that LocalQueues in the given namespaces point to. */
    private Set<String> clusterQueuesReachableFrom(Collection<String> namespaces) {
        if (namespaces.isEmpty()) {
            return Set.of();
        }
        return Set.copyOf(jdbc.sql("SELECT DISTINCT cluster_queue FROM local_queue WHERE namespace = ANY(?)")
                .param(namespaces.toArray(String[]::new)).query(String.class).list());
    }

    /** Flavors named by each cluster queue that do not exist as ResourceFlavor objects. */
    public Map<String, List<String>> missingFlavorsByClusterQueue() {
        Map<String, List<String>> missing = new HashMap<>();
        jdbc.sql("""
                SELECT DISTINCT q.cluster_queue, q.flavor
                FROM cluster_queue_quota q LEFT JOIN resource_flavor f ON f.name = q.flavor
                WHERE f.name IS NULL
                ORDER BY q.cluster_queue, q.flavor""")
                .query((rs, i) -> Map.entry(rs.getString(1), rs.getString(2)))
                .list()
                .forEach(e -> missing.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue()));
        return missing;
    }

    /** What refers to a ClusterQueue or ResourceFlavor, for a 409 on delete; empty when nothing does. */
    List<String> referencesTo(Kind kind, String name) {
        return switch (kind) {
            case CLUSTER_QUEUE -> jdbc.sql("""
                    SELECT 'LocalQueue ' || namespace || '/' || name FROM local_queue WHERE cluster_queue = :name
                    UNION ALL
                    SELECT 'Workload ' || namespace || '/' || name || ' (' || state || ')'
                    FROM workload WHERE cluster_queue = :name AND state IN ('Pending', 'Admitted', 'Running', 'Evicted')
                    ORDER BY 1 LIMIT 100""").param("name", name).query(String.class).list();
            case RESOURCE_FLAVOR -> jdbc.sql("""
                    SELECT DISTINCT 'ClusterQueue ' || cluster_queue FROM cluster_queue_quota WHERE flavor = :name
                    UNION
                    SELECT DISTINCT 'Cohort ' || cohort FROM cohort_quota WHERE flavor = :name
                    ORDER BY 1 LIMIT 100""").param("name", name).query(String.class).list();
            default -> List.of();
        };
    }

    private void insertQuotas(String table, String ownerColumn, String owner, List<ResourceGroup> groups) {
        List<Object[]> rows = new ArrayList<>();
        for (int g = 0; g < groups.size(); g++) {
            List<ResourceGroup.FlavorQuotas> flavors = groups.get(g).flavors();
            for (int f = 0; f < flavors.size(); f++) {
                for (ResourceGroup.ResourceQuota r : flavors.get(f).resources()) {
                    rows.add(new Object[]{owner, g, f, flavors.get(f).name(), r.name(), r.nominalQuota().value(),
                            r.borrowingLimit() == null ? null : r.borrowingLimit().value(),
                            r.lendingLimit() == null ? null : r.lendingLimit().value()});
                }
            }
        }
        jdbcTemplate.batchUpdate("INSERT INTO " + table + " (" + ownerColumn + ", group_index, flavor_index,"
                + " flavor, resource, nominal_quota, borrowing_limit, lending_limit) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows);
    }

    /** The column (or, for a Namespace, the expression) holding an object's spec as {@link #specJson} writes it. */
    private static String spec(Kind kind) {
        return kind == Kind.NAMESPACE ? "jsonb_build_object('name', name, 'labels', labels)" : "spec";
    }

    private static String table(Kind kind) {
        return switch (kind) {
            case RESOURCE_FLAVOR -> "resource_flavor";
            case COHORT -> "cohort";
            case CLUSTER_QUEUE -> "cluster_queue";
            case LOCAL_QUEUE -> "local_queue";
            case PRIORITY_CLASS, WORKLOAD_PRIORITY_CLASS -> "priority_class";
            case NAMESPACE -> "namespace";
            case ADMISSION_CHECK -> "admission_check";
            case PROVISIONING_REQUEST_CONFIG -> "provisioning_request_config";
            default -> throw new IllegalArgumentException(kind + " is not a configuration kind");
        };
    }

    /** A LocalQueue's workloads as Kueue counts them in its status: pending (waiting and active) and admitted. */
    public record LocalQueueCounts(long pending, long admitted) {
        public static final LocalQueueCounts NONE = new LocalQueueCounts(0, 0);
    }

    /** Each LocalQueue's counts, by {@code namespace/name}; a queue with no workloads is absent. */
    public Map<String, LocalQueueCounts> localQueueCounts() {
        Map<String, LocalQueueCounts> counts = new java.util.HashMap<>();
        jdbc.sql("SELECT namespace, queue_name, pending FROM local_queue_workload_count WHERE pending > 0")
                .query((rs, n) -> counts.put(rs.getString(1) + "/" + rs.getString(2),
                        new LocalQueueCounts(rs.getLong(3), 0))).list();
        jdbc.sql("""
                        SELECT namespace, queue_name, count(*) FROM workload
                        WHERE state IN ('Admitted', 'Running') AND queue_name IS NOT NULL GROUP BY namespace, queue_name""")
                .query((rs, n) -> counts.merge(rs.getString(1) + "/" + rs.getString(2),
                        new LocalQueueCounts(0, rs.getLong(3)),
                        (a, b) -> new LocalQueueCounts(a.pending(), b.admitted()))).list();
        return counts;
    }
}
