package dev.platform.scheduler.scenario;

import dev.platform.scheduler.testsupport.PlatformIntegrationTest;
import dev.platform.scheduler.testsupport.TestDatabase;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.springframework.test.context.TestPropertySource;

import java.util.stream.Stream;

/**
 * The {@code fairSharing: true} scenario files, replayed as {@link ScenarioRestTest} does. Fair
 * sharing is a global setting, so these need the one extra application context of the suite; it
 * has a database of its own on the same server, since two scheduling loops on one database would
 * compete for leadership and see each other's rows.
 */
@PlatformIntegrationTest
@TestPropertySource(properties = {"platform.scheduler.fair-sharing.enabled=true",
        TestDatabase.DATABASE_PROPERTY + "=fair_sharing"})
class FairSharingScenarioRestTest extends ScenarioRestTest {

    @Override
    @TestFactory
    Stream<DynamicTest> scenarios() {
        return replay(ScenarioFile.all().stream().filter(ScenarioFile::fairSharing));
    }
}
