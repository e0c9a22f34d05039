package dev.platform.scheduler.testsupport;

import dev.platform.scheduler.scheduling.SchedulingLoop;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/** Empties every table of the platform's schema (not Flyway's history) between tests. */
public final class DatabaseCleaner {

    private DatabaseCleaner() {
    }

    /**
     * Empties the tables while the scheduling loop is paused between cycles, then lets it rebuild
     * its state from the (now empty) database.
     */
    public static void clean(JdbcClient jdbc, SchedulingLoop loop) {
        loop.quiesced(() -> clean(jdbc)).join();
    }

    /**
     * Data tables only: the schema history and the leadership row belong to the running application, and
     * the Admin with the token {@code PLATFORM_BOOTSTRAP_ADMIN_TOKEN} made at start stays, so tests keep
     * authenticating as they did.
     */
    public static void clean(JdbcClient jdbc) {
        List<String> tables = used(jdbc, jdbc.sql("""
                SELECT tablename FROM pg_tables
                WHERE schemaname = 'public'
                  AND tablename NOT IN ('flyway_schema_history', 'scheduler_leader', 'app_user', 'api_token')""")
                .query(String.class).list());
        // TRUNCATE locks the tables one after the other while the application's scheduled readers (gauges,
        // usage samples) lock several in another order: PostgreSQL may end the TRUNCATE as a deadlock victim.
        for (int attempt = 1; !tables.isEmpty(); attempt++) {
            try {
                jdbc.sql("TRUNCATE " + String.join(", ", tables) + " RESTART IDENTITY CASCADE").update();
                break;
            } catch (PessimisticLockingFailureException e) {
                if (attempt == 5) {
                    throw e;
                }
            }
        }
        jdbc.sql("DELETE FROM api_token WHERE created_by <> 'bootstrap'").update();
        jdbc.sql("DELETE FROM app_user WHERE created_by <> 'bootstrap'").update();
    }

    /**
     * The tables among {@code tables} that hold a row or whose own sequence has handed out a value, in one
     * statement: truncating only these leaves the schema as truncating all of them would, at a fraction of the
     * cost, since each truncated table gets new files, and most tests touch a few tables of the thirty-odd.
     */
    private static List<String> used(JdbcClient jdbc, List<String> tables) {
        if (tables.isEmpty()) {
            return tables;
        }
        String holdingRows = tables.stream()
                .map(table -> "SELECT '" + table + "' WHERE EXISTS (SELECT 1 FROM " + table + ")")
                .collect(Collectors.joining(" UNION ALL "));
        return jdbc.sql(holdingRows + """
                         UNION
                        SELECT t.relname::text FROM pg_depend d
                        JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
                        JOIN pg_class t ON t.oid = d.refobjid
                        JOIN pg_sequences q ON q.schemaname = 'public' AND q.sequencename = s.relname
                        WHERE d.deptype IN ('a', 'i') AND q.last_value IS NOT NULL AND t.relname = ANY(:tables)""")
                .param("tables", tables.toArray(String[]::new)).query(String.class).list();
    }

    /**
     * A digest of every row of every platform table, to prove that a rejected request changed
     * nothing (counts alone would miss an update). Left out: the leader row, the usage samples, the
     * LocalQueues' admission fair sharing usage and the
     * forecasts, which the leader renews, appends and rewrites at its own pace whatever the requests do.
     */
    public static Map<String, String> contentDigest(JdbcClient jdbc) {
        List<String> tables = jdbc.sql("""
                SELECT tablename FROM pg_tables
                WHERE schemaname = 'public'
                  AND tablename NOT IN ('flyway_schema_history', 'scheduler_leader', 'cluster_queue_usage_sample',
                                        'workload_forecast', 'cluster_queue_forecast', 'local_queue_usage')
                ORDER BY tablename""")
                .query(String.class).list();
        Map<String, String> digests = new TreeMap<>();
        for (String table : tables) {
            digests.put(table, jdbc.sql("SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '')"
                    + " FROM " + table + " t").query(String.class).single());
        }
        return digests;
    }

    /** What a request answered, and whether it changed any row. */
    public record Observed<T>(T result, boolean changedRows) {
    }

    /**
     * Runs {@code request} while the scheduling loop is paused between cycles, with a
     * {@link #contentDigest} before and after: nothing else writes meanwhile, so a difference is
     * the request's doing. The usage history is left out (a timer samples it whatever requests do).
     */
    public static <T> Observed<T> observe(JdbcClient jdbc, SchedulingLoop loop, Supplier<T> request) {
        AtomicReference<Observed<T>> observed = new AtomicReference<>();
        loop.quiesced(() -> {
            Map<String, String> before = requestDigest(jdbc);
            T result = request.get();
            observed.set(new Observed<>(result, !before.equals(requestDigest(jdbc))));
        }).join();
        return observed.get();
    }

    private static Map<String, String> requestDigest(JdbcClient jdbc) {
        Map<String, String> digest = contentDigest(jdbc);
        digest.remove("cluster_queue_usage_sample");
        return digest;
    }
}
