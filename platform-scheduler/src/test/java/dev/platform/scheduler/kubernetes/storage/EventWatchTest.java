package dev.platform.scheduler.kubernetes.storage;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.ClusterRole;
import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.workload.WorkloadStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Watching Events ({@code kubectl get events -w}): they count in their timeline entries' ids, which concurrent
 * writers commit in any order, so a watch does not pass an entry still being written (it would never see it), and
 * passes one whose transaction rolled back once it has waited long enough.
 */
class EventWatchTest extends PlatformApplicationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Caller ADMIN = new Caller("admin", ClusterRole.Admin, List.of());

    @Autowired
    DataSource dataSource;

    @Autowired
    WorkloadStore workloads;

    private UUID workload;

    @BeforeEach
    void aWaitingWorkload() {
        PlatformClient.Response configured = api.postYaml("/api/v1/manifests", Manifests.queue("watched-events", "1",
                "Never"));
        assertThat(configured.status()).as(configured.body()).isEqualTo(200);
        PlatformClient.Response submitted = api.postYaml("/api/v1/namespaces/team-a/workloads",
                Manifests.job("watched-" + UUID.randomUUID().toString().substring(0, 8), "lq", "1", null));
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
        workload = UUID.fromString(submitted.json().get("uid").asString());
    }

    @Test
    void aWatchWaitsForAnEntryStillBeingWrittenBelowCommittedOnes() throws Exception {
        EventStore events = new EventStore(workloads, Clock.systemUTC(), Duration.ofMinutes(1));
        long from = events.ownRevision().orElseThrow();
        long inFlight;
        long committed;
        try (Connection writer = dataSource.getConnection()) {
            writer.setAutoCommit(false);
            inFlight = insertEvent(writer, "InFlight");
            committed = jdbc.sql("INSERT INTO workload_event (workload_uid, type, status, reason) "
                    + "VALUES (?, 'Committed', 'True', 'Committed') RETURNING id").param(workload)
                    .query(Long.class).single();

            ObjectStore.Changes read = events.changesAfter(from, 500, ADMIN);
            assertThat(read.readUpTo()).as("the watch stops below the entry still being written").isLessThan(inFlight);
            assertThat(read.changes()).extracting(ObjectStore.Change::revision).allMatch(id -> id < inFlight);
            assertThat(events.ownRevision().orElseThrow()).as("a list's resourceVersion too").isLessThan(inFlight);

            writer.commit();
        }
        ObjectStore.Changes read = events.changesAfter(from, 500, ADMIN);
        assertThat(read.changes()).extracting(ObjectStore.Change::revision).containsSubsequence(inFlight, committed);
        assertThat(read.readUpTo()).isGreaterThanOrEqualTo(committed);
        assertThat(reasonOf(read, inFlight)).isEqualTo("InFlight");
    }

    @Test
    void anEntryRolledBackIsPassedOnceTheWatchHasWaitedForIt() throws Exception {
        EventStore events = new EventStore(workloads, Clock.systemUTC(), Duration.ofMillis(500));
        long from = events.ownRevision().orElseThrow();
        try (Connection writer = dataSource.getConnection()) {
            writer.setAutoCommit(false);
            insertEvent(writer, "RolledBack");
            writer.rollback();
        }
        long after = jdbc.sql("INSERT INTO workload_event (workload_uid, type, status, reason) "
                + "VALUES (?, 'Committed', 'True', 'AfterTheGap') RETURNING id").param(workload).query(Long.class).single();

        assertThat(events.changesAfter(from, 500, ADMIN).readUpTo()).as("a gap is first waited for")
                .isLessThan(after);
        ObjectStore.Changes read = await().atMost(Duration.ofSeconds(30)).until(
                () -> events.changesAfter(from, 500, ADMIN), r -> r.readUpTo() >= after);
        assertThat(reasonOf(read, after)).isEqualTo("AfterTheGap");
    }

    @Test
    void kubectlsWatchFromAListsResourceVersionSeesTheEventsWrittenAfterIt() {
        PlatformClient.Response list = api.get("/k8s/api/v1/namespaces/team-a/events");
        assertThat(list.status()).as(list.body()).isEqualTo(200);
        String resourceVersion = list.json().at("/metadata/resourceVersion").asString();
        PlatformClient.Response submitted = api.postYaml("/api/v1/namespaces/team-a/workloads",
                Manifests.job("watched-later", "lq", "1", null));
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);

        PlatformClient.Response watch = api.get("/k8s/api/v1/namespaces/team-a/events?watch=true&timeoutSeconds=2"
                + "&resourceVersion=" + resourceVersion);

        assertThat(watch.status()).as(watch.body()).isEqualTo(200);
        List<JsonNode> added = watch.body().lines().map(JSON::readTree).toList();
        assertThat(added).isNotEmpty().allSatisfy(event -> {
            assertThat(event.get("type").asString()).isEqualTo("ADDED");
            assertThat(Long.parseLong(event.at("/object/metadata/resourceVersion").asString()))
                    .isGreaterThan(Long.parseLong(resourceVersion));
        });
        assertThat(added).anySatisfy(event -> assertThat(event.at("/object/involvedObject/name").asString())
                .isEqualTo("watched-later"));
    }

    private long insertEvent(Connection connection, String reason) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO workload_event "
                + "(workload_uid, type, status, reason) VALUES (?, 'Written', 'True', ?) RETURNING id")) {
            insert.setObject(1, workload);
            insert.setString(2, reason);
            try (ResultSet id = insert.executeQuery()) {
                id.next();
                return id.getLong(1);
            }
        }
    }

    private static String reasonOf(ObjectStore.Changes read, long id) {
        return read.changes().stream().filter(c -> c.revision() == id).map(c -> String.valueOf(c.object().get("reason")))
                .findFirst().orElseThrow();
    }
}
