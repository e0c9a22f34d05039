package dev.platform.scheduler.performance;

import dev.platform.scheduler.testsupport.PlatformClient;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.Duration;
import java.util.OptionalLong;

/**
 * The scheduler a benchmark measures, wherever it runs: its HTTP port, its database (to seed a backlog and to
 * read what it decided) and the PostgreSQL server under it (for pgbench on the same server).
 */
interface SchedulerHost {

    int port();

    /** The REST client benchmarks submit with: the test Admin's bearer token. */
    default PlatformClient api() {
        return new PlatformClient(port());
    }

    JdbcClient jdbc();

    PostgresServer postgres();

    /** What runs where, for the results. */
    String description();

    /**
     * Stops the scheduler, runs {@code whileStopped} against its database, and starts it again from that state;
     * returns how long the way back took.
     */
    Startup restart(Runnable whileStopped);

    /** The scheduler's live heap after a full collection, when it runs in a JVM of its own. */
    OptionalLong liveHeapBytes();

    /**
     * How a scheduler came back: from launch to the leader's state rebuilt ({@code ready}), and the rebuild alone
     * (from taking leadership to the state rebuilt from the database).
     */
    record Startup(Duration ready, Duration rebuild) {
    }

    /** A PostgreSQL server as pgbench reaches it. */
    record PostgresServer(String host, int port, String user, String password, String version) {
    }
}
