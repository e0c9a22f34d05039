package dev.platform.scheduler.testsupport;

import dev.platform.scheduler.scheduling.SchedulingLoop;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Base of the tests that drive the whole application over HTTP: an empty database before each
 * test (with the scheduling loop paused and rebuilt), a client on the application's port, and
 * JDBC for looking at what the platform stored.
 */
@PlatformIntegrationTest
public abstract class PlatformApplicationTest {

    @LocalServerPort
    protected int port;

    @Autowired
    protected JdbcClient jdbc;

    @Autowired
    protected SchedulingLoop loop;

    protected PlatformClient api;

    @BeforeEach
    void emptyPlatform() {
        DatabaseCleaner.clean(jdbc, loop);
        api = new PlatformClient(port);
    }
}
