package dev.platform.scheduler.testsupport;

import dev.platform.scheduler.cluster.AgentsProperties;
import dev.platform.scheduler.leadership.LeaderStatus;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.boot.test.autoconfigure.json.AutoConfigureJson;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.TestPropertySource;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * One persistence slice for every store, writer and JPA repository outside the scheduling loop (and the two
 * services that write rows, submission and configuration), shared by all store tests (one context for all of
 * them): the stores over JDBC and JPA in one transaction manager,
 * as in the application, on a database of their own on the tests' real PostgreSQL server, migrated by
 * Flyway. Their own database keeps the running application contexts of the story tests (their scheduling
 * loops, their cleaners) away from these rows, and the other way round. Each test runs in a transaction
 * rolled back at its end, so it owns its rows and leaves none. The clock stands at {@link #NOW}. This
 * replica does not lead, so no scheduled job of the leader (the usage sampler) writes beside the tests:
 * tests call what they test.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@DataJpaTest(showSql = false, includeFilters = @ComponentScan.Filter(type = FilterType.REGEX, pattern = {
        "dev\\.platform\\.scheduler\\.workload\\.(WorkloadStore|WorkloadTransitions|WorkloadRunStates|WorkloadService|WorkloadUpdates|PriorityResolver|QueueNameResolution|SubmissionChecks|AllowedPriorityClasses)",
        "dev\\.platform\\.scheduler\\.cluster\\.(AgentCommandStore|ClusterInventoryStore|ClusterQueries|ClusterWorkloads|CommandSignals)",
        "dev\\.platform\\.scheduler\\.config\\.(ConfigStore|ConfigurationService|AppliedObjects|QueueUsage|QueueUsageHistory|ManifestParsing|ConfiguredQueues|ClusterQueueCapacity)",
        "dev\\.platform\\.scheduler\\.web\\.RequestBodies",
        "dev\\.platform\\.scheduler\\.forecast\\.ForecastStore",
        "dev\\.platform\\.scheduler\\.hotswap\\.HotswapStore",
        "dev\\.platform\\.scheduler\\.preemption\\.(PreemptionStore|LostWorkLedger)",
        "dev\\.platform\\.scheduler\\.console\\.(ConsoleChangeFeed|ConsoleNodePools)",
        "dev\\.platform\\.scheduler\\.identity\\.(TeamStore|TeamPriorityClasses|AccessAudit|AuthenticatedTokens)"}))
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@AutoConfigureJson
@ContextConfiguration(initializers = TestDatabase.Initializer.class)
@TestPropertySource(properties = TestDatabase.DATABASE_PROPERTY + "=store_slices")
@Import(StoreSliceTest.Ports.class)
public @interface StoreSliceTest {

    /** The slice's clock. */
    Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    /** What the application's other packages provide the stores. */
    @TestConfiguration(proxyBeanMethods = false)
    @EnableConfigurationProperties(AgentsProperties.class)
    class Ports {

        @Bean
        Clock clock() {
            return Clock.fixed(NOW, ZoneOffset.UTC);
        }

        @Bean
        LeaderStatus leaderStatus() {
            return () -> false;
        }
    }
}
