package dev.platform.scheduler.performance;

import org.springframework.jdbc.core.simple.JdbcClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL's own account of a measured stretch ({@code pg_stat_statements}), with
 * {@code -Dplatform.performance.statements=true}: which statements took the server's time, how often, how many
 * rows. Off by default: the extension's bookkeeping is itself a cost on every statement.
 */
final class StatementStatistics {

    static final boolean ON = Boolean.getBoolean("platform.performance.statements");

    private StatementStatistics() {
    }

    /** Forgets what came before the measured stretch. */
    static void reset(JdbcClient jdbc) {
        if (ON) {
            jdbc.sql("CREATE EXTENSION IF NOT EXISTS pg_stat_statements").update();
            jdbc.sql("SELECT pg_stat_statements_reset()").query().rowSet();
        }
    }

    /** The statements that took most of the server's time since {@link #reset}, into {@code file}, one a line. */
    static void write(JdbcClient jdbc, Path file) {
        if (!ON) {
            return;
        }
        List<Map<String, Object>> rows = jdbc.sql("""
                        SELECT calls, round(total_exec_time::numeric, 1) AS ms, rows,
                               round(shared_blks_dirtied::numeric) AS dirtied, wal_bytes,
                               left(regexp_replace(query, '\\s+', ' ', 'g'), 240) AS statement
                        FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 40""")
                .query().listOfRows();
        StringBuilder text = new StringBuilder("calls | ms | rows | dirtied | wal bytes | statement\n");
        rows.forEach(r -> text.append(r.get("calls")).append(" | ").append(r.get("ms")).append(" | ")
                .append(r.get("rows")).append(" | ").append(r.get("dirtied")).append(" | ").append(r.get("wal_bytes"))
                .append(" | ").append(r.get("statement")).append('\n'));
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
