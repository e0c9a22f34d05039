package dev.platform.scheduler.admissioncheck;

import dev.platform.api.agent.ProvisioningRequestReport;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The writer of table provisioned_node_pool: the node pools each cluster provisioned for a workload's
 * ProvisioningRequest, as its agent reports them. Placement reads them with the inventory and gives such a pool to
 * that workload alone.
 */
@Repository
class ProvisionedPools {

    private final JdbcClient jdbc;

    ProvisionedPools(JdbcTemplate jdbcTemplate) {
        this.jdbc = JdbcClient.create(jdbcTemplate);
    }

    /**
     * The cluster's provisioned pools become those of {@code reports} (every request the agent manages there): a
     * request gone, or one whose capacity went, no longer holds a pool for its workload.
     */
    void replace(String cluster, List<ProvisioningRequestReport> reports) {
        List<String> pools = new ArrayList<>();
        List<UUID> uids = new ArrayList<>();
        List<String> requests = new ArrayList<>();
        for (ProvisioningRequestReport report : reports) {
            UUID uid = ProvisioningRequests.parseUid(report.workloadUid());
            if (uid == null) {
                continue;
            }
            for (String pool : report.nodePools()) {
                pools.add(pool);
                uids.add(uid);
                requests.add(report.namespace() + "/" + report.name());
            }
        }
        jdbc.sql("DELETE FROM provisioned_node_pool WHERE cluster = ?").param(cluster).update();
        if (!pools.isEmpty()) {
            jdbc.sql("""
                    INSERT INTO provisioned_node_pool (cluster, pool, workload_uid, request)
                    SELECT :cluster, pool, uid, request
                    FROM unnest(:pools::text[], :uids::uuid[], :requests::text[]) AS r(pool, uid, request)
                    ON CONFLICT (cluster, pool) DO NOTHING""")
                    .param("cluster", cluster).param("pools", pools.toArray(String[]::new))
                    .param("uids", uids.toArray(UUID[]::new)).param("requests", requests.toArray(String[]::new))
                    .update();
        }
    }
}
