package dev.platform.scheduler.config;

import dev.platform.api.manifest.Quantity;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.CohortSpec;
import dev.platform.scheduler.core.model.FlavorQuotas;
import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.model.ResourceGroup;
import dev.platform.scheduler.core.model.ResourceQuota;
import dev.platform.scheduler.core.quota.QuotaNode;
import dev.platform.scheduler.core.quota.QuotaTree;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The most a ClusterQueue could ever admit, per flavor and resource of its quota: its nominal quota plus what it
 * may borrow in its cohort tree were every other queue empty (Kueue's potentialAvailable, on the core's quota tree).
 * Reads the queue's cohort tree only (a standalone queue: its own quota rows): names first, then the quota rows of
 * the tree's members.
 */
@Component
class ClusterQueueCapacity {

    private final JdbcClient jdbc;

    ClusterQueueCapacity(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** In milli-units; empty when the ClusterQueue does not exist or has no quota. */
    Map<FlavorResource, Long> of(String clusterQueue) {
        List<Optional<String>> found = jdbc.sql("SELECT cohort FROM cluster_queue WHERE name = ?").param(clusterQueue)
                .query((rs, i) -> Optional.ofNullable(rs.getString("cohort"))).list();
        if (found.isEmpty()) {
            return Map.of();
        }
        Map<String, String> queueCohorts = new HashMap<>();
        Map<String, String> parents = new HashMap<>();
        Set<String> cohorts = new HashSet<>();
        Set<String> queues = new HashSet<>(Set.of(clusterQueue));
        if (found.get(0).isPresent()) {
            jdbc.sql("SELECT name, parent_name FROM cohort").query(rs -> {
                parents.put(rs.getString("name"), rs.getString("parent_name"));
            });
            cohorts.addAll(treeOf(found.get(0).get(), parents));
            jdbc.sql("SELECT name, cohort FROM cluster_queue WHERE cohort = ANY(?)")
                    .param(cohorts.toArray(String[]::new)).query(rs -> {
                        queueCohorts.put(rs.getString("name"), rs.getString("cohort"));
                    });
            queues.addAll(queueCohorts.keySet());
        }
        List<CohortSpec> cohortSpecs = new ArrayList<>();
        Map<String, List<ResourceGroup>> cohortGroups = groups("cohort_quota", "cohort", cohorts);
        cohorts.forEach(c -> cohortSpecs.add(new CohortSpec(c, parents.get(c), cohortGroups.getOrDefault(c, List.of()), 1)));
        Map<String, List<ResourceGroup>> queueGroups = groups("cluster_queue_quota", "cluster_queue", queues);
        List<ClusterQueueSpec> queueSpecs = queues.stream().map(q -> new ClusterQueueSpec(q, queueCohorts.get(q),
                queueGroups.getOrDefault(q, List.of()), null, null, null, null, 1, null)).toList();
        QuotaNode node = QuotaTree.build(cohortSpecs, queueSpecs, q -> Map.of()).clusterQueue(clusterQueue);
        Map<FlavorResource, Long> capacity = new TreeMap<>();
        for (ResourceGroup group : queueGroups.getOrDefault(clusterQueue, List.of())) {
            for (FlavorQuotas flavor : group.flavors()) {
                for (ResourceQuota quota : flavor.resources()) {
                    FlavorResource fr = new FlavorResource(flavor.name(), quota.name());
                    capacity.put(fr, node.potentialAvailable(fr));
                }
            }
        }
        return capacity;
    }

    /**
     * Every cohort of the tree holding {@code cohort}: up to its root, then down from there. {@code parents} has a
     * Cohort object's parent; a cohort only named by a queue has no object and so no parent.
     */
    private static Set<String> treeOf(String cohort, Map<String, String> parents) {
        String root = cohort;
        Set<String> seen = new HashSet<>(Set.of(root));
        while (parents.get(root) != null && seen.add(parents.get(root))) {
            root = parents.get(root);
        }
        Map<String, List<String>> children = new HashMap<>();
        parents.forEach((child, parent) -> {
            if (parent != null) {
                children.computeIfAbsent(parent, p -> new ArrayList<>()).add(child);
            }
        });
        Set<String> tree = new HashSet<>();
        List<String> next = new ArrayList<>(List.of(root));
        while (!next.isEmpty()) {
            String c = next.remove(next.size() - 1);
            if (tree.add(c)) {
                next.addAll(children.getOrDefault(c, List.of()));
            }
        }
        return tree;
    }

    /** The resource groups of {@code owners} from their quota rows, groups and flavors in their order. */
    private Map<String, List<ResourceGroup>> groups(String table, String ownerColumn, Set<String> owners) {
        Map<String, Map<Integer, Map<Integer, FlavorRows>>> rows = new HashMap<>();
        jdbc.sql("SELECT " + ownerColumn + " AS owner, group_index, flavor_index, flavor, resource, nominal_quota,"
                        + " borrowing_limit, lending_limit FROM " + table + " WHERE " + ownerColumn + " = ANY(?)")
                .param(owners.toArray(String[]::new))
                .query(rs -> {
                    String flavor = rs.getString("flavor");
                    ResourceQuota quota = new ResourceQuota(rs.getString("resource"), milli(rs, "nominal_quota"),
                            nullableMilli(rs, "borrowing_limit"), nullableMilli(rs, "lending_limit"));
                    rows.computeIfAbsent(rs.getString("owner"), o -> new TreeMap<>())
                            .computeIfAbsent(rs.getInt("group_index"), g -> new TreeMap<>())
                            .computeIfAbsent(rs.getInt("flavor_index"), f -> new FlavorRows(flavor, new ArrayList<>()))
                            .quotas().add(quota);
                });
        Map<String, List<ResourceGroup>> groups = new HashMap<>();
        rows.forEach((owner, byGroup) -> groups.put(owner, byGroup.values().stream().map(flavors -> {
            Set<String> covered = new LinkedHashSet<>();
            flavors.values().forEach(f -> f.quotas().forEach(q -> covered.add(q.name())));
            return new ResourceGroup(List.copyOf(covered), flavors.values().stream()
                    .map(f -> new FlavorQuotas(f.flavor(), f.quotas())).toList());
        }).toList()));
        return groups;
    }

    private record FlavorRows(String flavor, List<ResourceQuota> quotas) {
    }

    private static long milli(ResultSet rs, String column) throws SQLException {
        return Quantity.parse(rs.getBigDecimal(column).toPlainString()).milliValue();
    }

    private static Long nullableMilli(ResultSet rs, String column) throws SQLException {
        BigDecimal value = rs.getBigDecimal(column);
        return value == null ? null : Quantity.parse(value.toPlainString()).milliValue();
    }
}
