package dev.platform.scheduler.performance;

import dev.platform.scheduler.scheduling.SchedulingLoop;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.TestDatabase;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.net.URI;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The test suite's shared application (smoke size only): it shares the test JVM, so its heap is not its own, and
 * a restart is the loop's rebuild of its state from the database. The benchmarks call it as an Admin of their
 * own, whose submission bucket no other test drains (the shared application keeps the default rate).
 */
final class SharedApplicationHost implements SchedulerHost {

    private final int port;
    private final JdbcClient jdbc;
    private final SchedulingLoop loop;
    private final PlatformClient api;

    SharedApplicationHost(int port, JdbcClient jdbc, SchedulingLoop loop) {
        this.port = port;
        this.jdbc = jdbc;
        this.loop = loop;
        PlatformClient admin = new PlatformClient(port);
        PlatformClient.Response user = admin.postJson("/api/v1/users",
                "{\"name\": \"performance-smoke\", \"clusterRole\": \"Admin\"}");
        if (user.status() != 201) {
            throw new IllegalStateException("could not create the benchmarks' user: " + user.body());
        }
        api = admin.as(admin.postJson("/api/v1/tokens", "{\"user\": \"performance-smoke\"}").json().get("token")
                .asString());
    }

    @Override
    public PlatformClient api() {
        return api;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public JdbcClient jdbc() {
        return jdbc;
    }

    @Override
    public PostgresServer postgres() {
        TestDatabase.Connection db = TestDatabase.connection();
        URI uri = URI.create(db.url().substring("jdbc:".length()));
        return new PostgresServer(uri.getHost(), uri.getPort(), db.username(), db.password(),
                "PostgreSQL " + jdbc.sql("SHOW server_version").query(String.class).single()
                        + " (the tests' server, fsync off)");
    }

    @Override
    public String description() {
        return "the test suite's shared application in the test JVM, on " + postgres().version();
    }

    @Override
    public Startup restart(Runnable whileStopped) {
        AtomicLong rebuildFrom = new AtomicLong();
        loop.quiesced(() -> {
            whileStopped.run();
            rebuildFrom.set(System.nanoTime());
        }).join();
        Duration rebuild = Duration.ofNanos(System.nanoTime() - rebuildFrom.get());
        return new Startup(rebuild, rebuild);
    }

    @Override
    public OptionalLong liveHeapBytes() {
        return OptionalLong.empty();
    }
}
