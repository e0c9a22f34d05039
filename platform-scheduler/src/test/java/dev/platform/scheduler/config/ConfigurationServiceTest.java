package dev.platform.scheduler.config;

import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.api.manifest.decode.KubernetesManifestParser;
import dev.platform.scheduler.config.ConfigurationService.ConfigurationChanged;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.event.ApplicationEvents;
import org.springframework.test.context.event.RecordApplicationEvents;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static dev.platform.scheduler.testsupport.StoredWorkloads.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Applying and deleting configuration: each object created, updated or unchanged, audited when written and
 * not at all in a dry run; a namespace claimed by two teams or a queue still referred to is a conflict; a
 * LocalQueue moved takes its pending workloads along; the scheduling loop hears of a change only.
 */
@StoreSliceTest
@RecordApplicationEvents
class ConfigurationServiceTest {

    private static final ManifestParser PARSER = new KubernetesManifestParser(ManifestLimits.DEFAULT);

    @Autowired
    ConfigurationService configuration;

    @Autowired
    WorkloadTransitions transitions;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    ApplicationEvents events;

    private static List<DecodedDocument> documents(String yaml) {
        return PARSER.parse(yaml.getBytes(StandardCharsets.UTF_8), ManifestParser.Format.YAML);
    }

    private List<String> apply(String yaml, boolean dryRun) {
        return configuration.apply(documents(yaml), dryRun, "alice").stream()
                .map(r -> r.kind() + " " + r.name() + " " + r.action()).toList();
    }

    private List<String> audit() {
        return jdbc.sql("SELECT actor || ' ' || action || ' ' || kind || ' ' || name FROM config_audit ORDER BY id")
                .query(String.class).list();
    }

    private long changes() {
        return events.stream(ConfigurationChanged.class).count();
    }

    @Test
    void eachObjectIsCreatedUpdatedOrUnchangedAndOnlyWritesAreAudited() {
        assertThat(apply(Manifests.queue("cq", "4", "Never"), false))
                .containsExactly("ResourceFlavor default created", "ClusterQueue cq created", "LocalQueue lq created");
        assertThat(apply(Manifests.queue("cq", "8", "Never"), false))
                .containsExactly("ResourceFlavor default unchanged", "ClusterQueue cq updated", "LocalQueue lq unchanged");
        assertThat(apply(Manifests.queue("cq", "8", "Never"), false)).allMatch(r -> r.endsWith("unchanged"));

        assertThat(audit()).containsExactly("alice created ResourceFlavor default", "alice created ClusterQueue cq",
                "alice created LocalQueue lq", "alice updated ClusterQueue cq");
        assertThat(changes()).isEqualTo(2);
    }

    @Test
    void aDryRunSaysWhatWouldHappenAndWritesNothing() {
        assertThat(apply(Manifests.queue("cq", "4", "Never"), true))
                .containsExactly("ResourceFlavor default created", "ClusterQueue cq created", "LocalQueue lq created");

        assertThat(jdbc.sql("SELECT count(*) FROM cluster_queue").query(Long.class).single()).isZero();
        assertThat(audit()).isEmpty();
        assertThat(changes()).isZero();
    }

    @Test
    void aNamespaceClaimedByTwoTeamsIsAConflictAndNothingIsWritten() {
        assertThatThrownBy(() -> apply("""
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: vision}
                spec: {namespaces: [team-a]}
                ---
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: speech}
                spec: {namespaces: [team-a]}
                """, false)).isInstanceOfSatisfying(Refusal.class, e -> {
            assertThat(e.kind()).isEqualTo(Refusal.Kind.Conflict);
            assertThat(e.getMessage()).isEqualTo("namespace team-a is claimed by teams vision and speech");
        });
        assertThat(audit()).isEmpty();
    }

    @Test
    void aQueueStillReferredToIsNotDeletedAndAMissingOneIs404() {
        apply(Manifests.queue("cq", "4", "Never"), false);

        assertThatThrownBy(() -> configuration.delete(Kind.CLUSTER_QUEUE, ObjectKey.cluster("cq"), "alice"))
                .isInstanceOfSatisfying(Refusal.class, e -> {
                    assertThat(e.kind()).isEqualTo(Refusal.Kind.Conflict);
                    assertThat(e.errors()).hasSize(1);
                });
        assertThatThrownBy(() -> configuration.delete(Kind.CLUSTER_QUEUE, ObjectKey.cluster("nope"), "alice"))
                .isInstanceOfSatisfying(Refusal.class, e -> assertThat(e.kind()).isEqualTo(Refusal.Kind.NotFound));

        configuration.delete(Kind.LOCAL_QUEUE, new ObjectKey("team-a", "lq"), "bob");
        configuration.delete(Kind.CLUSTER_QUEUE, ObjectKey.cluster("cq"), "bob");
        assertThat(audit()).endsWith("bob deleted LocalQueue lq", "bob deleted ClusterQueue cq");
    }

    @Test
    void aLocalQueueMovedOrDeletedTakesItsPendingWorkloadsAlong() {
        apply(Manifests.queue("cq", "4", "Never"), false);
        apply(Manifests.queue("other", "4", "Never").split("---\n", 2)[1].replace("name: lq", "name: spare"), false);
        submit(transitions, "team-a", "waiting", "lq", "cq", 0, StoreSliceTest.NOW);

        apply(Manifests.queue("other", "4", "Never").split("---\n", 3)[2], false);
        assertThat(clusterQueueOf("waiting")).isEqualTo("other");

        configuration.delete(Kind.LOCAL_QUEUE, new ObjectKey("team-a", "lq"), "alice");
        assertThat(clusterQueueOf("waiting")).isNull();
    }

    private String clusterQueueOf(String name) {
        List<String> clusterQueue = jdbc.sql("SELECT cluster_queue FROM workload WHERE name = ?").param(name)
                .query(String.class).list();
        assertThat(clusterQueue).hasSize(1);
        return clusterQueue.get(0);
    }
}
