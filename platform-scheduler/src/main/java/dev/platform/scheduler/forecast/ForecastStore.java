package dev.platform.scheduler.forecast;

import dev.platform.scheduler.core.forecast.WorkloadForecast;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;

/**
 * Writes forecasts: per cohort tree, the rows that changed, the rows of workloads no longer waiting, and when the
 * tree's ClusterQueues were forecast. Each tree in one transaction, a statement per kind of change.
 */
@Repository
class ForecastStore {

    /** A workload's forecast and the ClusterQueue it waits in (null when its LocalQueue does not exist). */
    record Entry(String clusterQueue, WorkloadForecast forecast) {
    }

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;

    ForecastStore(JdbcClient jdbc, TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.transactions = transactions;
    }

    /** Forecasts of a new leadership: rows of workloads no longer waiting go, the rest is stale until redone. */
    void leadershipTaken() {
        transactions.executeWithoutResult(tx -> {
            jdbc.sql("""
                    DELETE FROM workload_forecast f USING workload w
                    WHERE w.uid = f.workload_uid AND w.state NOT IN ('Pending', 'Evicted')""").update();
            jdbc.sql("UPDATE cluster_queue_forecast SET stale = true WHERE NOT stale").update();
        });
    }

    /**
     * One tree's new forecasts: {@code changed} rows upserted, {@code gone} rows deleted, its ClusterQueues marked
     * computed at {@code at} and no longer stale.
     */
    void writeTree(Collection<String> clusterQueues, Map<String, Entry> changed, Collection<String> gone, Instant at) {
        transactions.executeWithoutResult(tx -> {
            if (!gone.isEmpty()) {
                jdbc.sql("DELETE FROM workload_forecast WHERE workload_uid = ANY(?)")
                        .param(gone.stream().map(UUID::fromString).toArray(UUID[]::new)).update();
            }
            upsert(changed, at);
            if (!clusterQueues.isEmpty()) {
                jdbc.sql("""
                        INSERT INTO cluster_queue_forecast (cluster_queue, computed_at, stale)
                        SELECT q, ?, false FROM unnest(?::text[]) AS q
                        ON CONFLICT (cluster_queue) DO UPDATE SET computed_at = EXCLUDED.computed_at, stale = false""")
                        .params(Timestamp.from(at), clusterQueues.toArray(String[]::new)).update();
            }
        });
    }

    /** The trees these ClusterQueues belong to changed and were not forecast again in this round. */
    void markStale(Collection<String> clusterQueues) {
        if (!clusterQueues.isEmpty()) {
            jdbc.sql("UPDATE cluster_queue_forecast SET stale = true WHERE cluster_queue = ANY(?) AND NOT stale")
                    .param(clusterQueues.toArray(String[]::new)).update();
        }
    }

    /**
     * Upserts in one statement over arrays; a workload deleted meanwhile is skipped (the join), so the forecast
     * thread never fails on a row the API has just removed.
     */
    private void upsert(Map<String, Entry> rows, Instant at) {
        if (rows.isEmpty()) {
            return;
        }
        int n = rows.size();
        UUID[] uids = new UUID[n];
        String[] queues = new String[n];
        String[] estimates = new String[n];
        String[] p10 = new String[n];
        String[] p90 = new String[n];
        String[] bases = new String[n];
        String[] messages = new String[n];
        String[] alone = new String[n];
        String[] arrivals = new String[n];
        int i = 0;
        for (Map.Entry<String, Entry> row : rows.entrySet()) {
            WorkloadForecast f = row.getValue().forecast();
            uids[i] = UUID.fromString(row.getKey());
            queues[i] = row.getValue().clusterQueue();
            estimates[i] = text(f.estimatedAdmissionAt());
            p10[i] = text(f.p10());
            p90[i] = text(f.p90());
            bases[i] = f.basis().name();
            messages[i] = f.message();
            alone[i] = text(f.ifNothingArrivesAt());
            arrivals[i] = f.arrivals().name();
            i++;
        }
        jdbc.sql("""
                INSERT INTO workload_forecast (workload_uid, cluster_queue, estimated_admission_at, admission_p10,
                                               admission_p90, basis, message, admission_if_nothing_arrives,
                                               arrival_basis, computed_at)
                SELECT r.uid, r.cq, r.estimate, r.p10, r.p90, r.basis, r.message, r.alone, r.arrivals, ?
                FROM unnest(?::uuid[], ?::text[], ?::timestamptz[], ?::timestamptz[], ?::timestamptz[], ?::text[],
                            ?::text[], ?::timestamptz[], ?::text[])
                     AS r(uid, cq, estimate, p10, p90, basis, message, alone, arrivals)
                JOIN workload w ON w.uid = r.uid
                ON CONFLICT (workload_uid) DO UPDATE SET cluster_queue = EXCLUDED.cluster_queue,
                    estimated_admission_at = EXCLUDED.estimated_admission_at, admission_p10 = EXCLUDED.admission_p10,
                    admission_p90 = EXCLUDED.admission_p90, basis = EXCLUDED.basis, message = EXCLUDED.message,
                    admission_if_nothing_arrives = EXCLUDED.admission_if_nothing_arrives,
                    arrival_basis = EXCLUDED.arrival_basis, computed_at = EXCLUDED.computed_at""")
                .params(Timestamp.from(at), uids, queues, estimates, p10, p90, bases, messages, alone, arrivals)
                .update();
    }

    /** Instants travel as ISO-8601 text in the arrays; PostgreSQL reads them as timestamptz. */
    private static String text(Instant at) {
        return at == null ? null : at.toString();
    }
}
