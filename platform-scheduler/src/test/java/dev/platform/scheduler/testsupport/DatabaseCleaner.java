package dev.platform.scheduler.testsupport;

import dev.platform.scheduler.scheduling.SchedulingLoop;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.util.List;

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

    /** Data tables only: the schema history and the leadership row belong to the running application. */
    public static void clean(JdbcClient jdbc) {
        List<String> tables = jdbc.sql("""
                SELECT tablename FROM pg_tables
                WHERE schemaname = 'public' AND tablename NOT IN ('flyway_schema_history', 'scheduler_leader')""")
                .query(String.class).list();
        if (!tables.isEmpty()) {
            jdbc.sql("TRUNCATE " + String.join(", ", tables) + " RESTART IDENTITY CASCADE").update();
        }
    }

    /**
     * A digest of every row of every platform table, to prove that a rejected request changed
     * nothing (counts alone would miss an update). The leader row is left out: its holder renews
     * it every few seconds whatever the requests do; so are the forecasts, which the leader's
     * forecast thread writes at its own pace.
     */
    public static java.util.Map<String, String> contentDigest(JdbcClient jdbc) {
        List<String> tables = jdbc.sql("""
                SELECT tablename FROM pg_tables
                WHERE schemaname = 'public' AND tablename NOT IN ('flyway_schema_history', 'scheduler_leader',
                                                                  'workload_forecast', 'cluster_queue_forecast')
                ORDER BY tablename""")
                .query(String.class).list();
        java.util.Map<String, String> digests = new java.util.TreeMap<>();
        for (String table : tables) {
            digests.put(table, jdbc.sql("SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '')"
                    + " FROM " + table + " t").query(String.class).single());
        }
        return digests;
    }
}
