package dev.platform.scheduler.config;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.ClusterRole;
import dev.platform.api.identity.TeamRole;
import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.ConfigManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.api.manifest.TeamManifest;
import dev.platform.api.manifest.decode.KubernetesManifestParser;
import dev.platform.scheduler.identity.TeamPriorityClasses;
import dev.platform.scheduler.identity.TeamStore;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.platform.scheduler.testsupport.StoredWorkloads.submit;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Configuration objects as stored: a spec reads back as it was applied, an update replaces an object's quota
 * rows, a delete hands back what was there, what refers to a queue or flavor, and which ClusterQueues a team
 * sees (those its LocalQueues feed).
 */
@StoreSliceTest
class ConfigStoreTest {

    private static final ManifestParser PARSER = new KubernetesManifestParser(ManifestLimits.DEFAULT);

    @Autowired
    ConfigStore store;

    @Autowired
    TeamStore teams;

    @Autowired
    TeamPriorityClasses teamPriorityClasses;

    @Autowired
    WorkloadTransitions transitions;

    @Autowired
    JdbcClient jdbc;

    /** The objects of {@code yaml}, decoded as the API decodes them, stored in their order. */
    private List<ConfigManifest> apply(String yaml) {
        List<ConfigManifest> manifests = PARSER.parse(yaml.getBytes(StandardCharsets.UTF_8), ManifestParser.Format.YAML)
                .stream().map(d -> (ConfigManifest) d.manifest()).toList();
        manifests.forEach(store::insert);
        return manifests;
    }

    private List<String> quotaRows(String clusterQueue) {
        return jdbc.sql("SELECT flavor || '/' || resource || '=' || nominal_quota FROM cluster_queue_quota"
                        + " WHERE cluster_queue = ? ORDER BY group_index, flavor_index, resource")
                .param(clusterQueue).query(String.class).list();
    }

    @Test
    void aStoredSpecReadsBackAsItWasApplied() {
        List<ConfigManifest> applied = apply(Manifests.queue("cq", "4", "Never"));
        ClusterQueueManifest queue = (ClusterQueueManifest) applied.get(1);

        assertThat(store.find(Kind.CLUSTER_QUEUE, ObjectKey.cluster("cq"), ClusterQueueManifest.class)).contains(queue);
        assertThat(store.list(Kind.LOCAL_QUEUE, LocalQueueManifest.class)).containsExactly((LocalQueueManifest) applied.get(2));
        Map<ObjectKey, String> specs = store.currentSpecs(Kind.LOCAL_QUEUE,
                List.of(new ObjectKey("team-a", "lq"), new ObjectKey("team-b", "lq")));
        assertThat(specs).containsOnlyKeys(new ObjectKey("team-a", "lq"));
        assertThat(store.sameSpec(specs.get(new ObjectKey("team-a", "lq")), applied.get(2))).isTrue();
        assertThat(quotaRows("cq")).containsExactly("default/cpu=4");
    }

    @Test
    void anUpdateReplacesTheQuotaRowsAndCountsAGeneration() {
        apply(Manifests.queue("cq", "4", "Never"));
        ClusterQueueManifest bigger = (ClusterQueueManifest) PARSER.parse(Manifests.queue("cq", "10", "Never")
                .getBytes(StandardCharsets.UTF_8), ManifestParser.Format.YAML).get(1).manifest();

        store.update(bigger);

        assertThat(quotaRows("cq")).containsExactly("default/cpu=10");
        assertThat(store.find(Kind.CLUSTER_QUEUE, ObjectKey.cluster("cq"), ClusterQueueManifest.class)).contains(bigger);
        assertThat(jdbc.sql("SELECT generation FROM cluster_queue WHERE name = 'cq'").query(Long.class).single())
                .isEqualTo(jdbc.sql("SELECT generation FROM local_queue WHERE name = 'lq'").query(Long.class).single() + 1);
    }

    @Test
    void aDeleteHandsBackWhatWasThereOnce() {
        List<ConfigManifest> applied = apply(Manifests.queue("cq", "4", "Never"));

        assertThat(store.delete(Kind.LOCAL_QUEUE, new ObjectKey("team-b", "lq"))).isEmpty();
        String before = store.delete(Kind.LOCAL_QUEUE, new ObjectKey("team-a", "lq")).orElseThrow();

        assertThat(store.sameSpec(before, applied.get(2))).isTrue();
        assertThat(store.delete(Kind.LOCAL_QUEUE, new ObjectKey("team-a", "lq"))).isEmpty();
        assertThat(store.find(Kind.LOCAL_QUEUE, new ObjectKey("team-a", "lq"), LocalQueueManifest.class)).isEmpty();
    }

    @Test
    void whatRefersToAQueueOrAFlavorIsNamedAndOnlyActiveWorkloadsCount() {
        apply(Manifests.queue("cq", "4", "Never"));
        submit(transitions, "team-a", "waiting", "lq", "cq", 0, StoreSliceTest.NOW);
        transitions.cancel(submit(transitions, "team-a", "done", "lq", "cq", 0, StoreSliceTest.NOW),
                StoreSliceTest.NOW, "alice");

        assertThat(store.referencesTo(Kind.CLUSTER_QUEUE, "cq"))
                .containsExactly("LocalQueue team-a/lq", "Workload team-a/waiting (Pending)");
        assertThat(store.referencesTo(Kind.RESOURCE_FLAVOR, "default")).containsExactly("ClusterQueue cq");
        assertThat(store.referencesTo(Kind.CLUSTER_QUEUE, "other")).isEmpty();
    }

    @Test
    void aQueueNamingAFlavorThatDoesNotExistIsFound() {
        apply(Manifests.queue("cq", "4", "Never"));
        store.delete(Kind.RESOURCE_FLAVOR, ObjectKey.cluster("default"));

        assertThat(store.missingFlavorsByClusterQueue()).containsExactly(Map.entry("cq", List.of("default")));
    }

    @Test
    void aTeamSeesTheClusterQueuesItsLocalQueuesFeed() {
        apply(Manifests.queue("cq", "4", "Never"));
        // the same queue and LocalQueue for team-b, without a second flavor "default"
        apply(Manifests.queue("cq-b", "4", "Never").split("---\n", 2)[1].replace("namespace: team-a", "namespace: team-b"));
        Caller engineer = new Caller("bob", null, List.of(new Caller.Membership("vision", TeamRole.Engineer, Set.of("team-a"))));
        Caller both = new Caller("carol", null, List.of(new Caller.Membership("vision", TeamRole.Engineer, Set.of("team-a")),
                new Caller.Membership("speech", TeamRole.TeamLead, Set.of("team-b"))));
        Caller noTeam = new Caller("dave", null, List.of());

        assertThat(store.clusterQueuesVisibleTo(engineer)).contains(Set.of("cq"));
        assertThat(store.clusterQueuesVisibleTo(both)).contains(Set.of("cq", "cq-b"));
        assertThat(store.clusterQueuesVisibleTo(noTeam)).contains(Set.of());
        assertThat(store.clusterQueuesVisibleTo(new Caller("ops", ClusterRole.Ops, List.of()))).isEmpty();
    }

    @Test
    void teamsAreStoredAsIdentityEntitiesAndANamespaceHasOneOwner() {
        TeamManifest vision = new TeamManifest("vision", List.of("team-a"),
                List.of(new TeamManifest.Member("bob", TeamRole.Engineer)));
        store.insert(vision);

        assertThat(store.find(Kind.TEAM, ObjectKey.cluster("vision"), TeamManifest.class)).contains(vision);
        assertThat(teams.ownershipConflicts(List.of(new TeamManifest("speech", List.of("team-a", "team-b"), List.of()))))
                .containsExactly("namespace team-a belongs to team vision; remove it there first");
        assertThat(teams.ownershipConflicts(List.of(new TeamManifest("vision", List.of("team-b"), List.of()),
                new TeamManifest("speech", List.of("team-a"), List.of())))).as("vision gives team-a up").isEmpty();
        assertThat(teams.ownershipConflicts(List.of(new TeamManifest("x", List.of("team-c"), List.of()),
                new TeamManifest("y", List.of("team-c"), List.of()))))
                .containsExactly("namespace team-c is claimed by teams x and y");
        TeamManifest renamed = new TeamManifest("vision", List.of("team-c"), List.of());
        store.update(renamed);
        assertThat(store.delete(Kind.TEAM, ObjectKey.cluster("vision")).map(spec -> store.sameSpec(spec, renamed)))
                .contains(true);
        assertThat(store.list(Kind.TEAM, TeamManifest.class)).isEmpty();
    }

    @Test
    void aTeamsAllowedPriorityClassesAreStoredAndRestrictItsNamespacesOnly() {
        store.insert(new TeamManifest("vision", List.of("team-a", "team-b"), List.of(), List.of("standard", "low")));
        store.insert(new TeamManifest("speech", List.of("team-c"), List.of()));
        store.insert(new TeamManifest("nlp", List.of("team-d"), List.of(), List.of()));

        assertThat(store.find(Kind.TEAM, ObjectKey.cluster("vision"), TeamManifest.class).orElseThrow()
                .allowedPriorityClasses()).containsExactly("low", "standard");
        assertThat(store.find(Kind.TEAM, ObjectKey.cluster("speech"), TeamManifest.class).orElseThrow()
                .allowedPriorityClasses()).as("no list").isNull();
        assertThat(teamPriorityClasses.of("team-b"))
                .contains(new TeamPriorityClasses.Restriction("vision", List.of("low", "standard")));
        assertThat(teamPriorityClasses.of("team-c")).as("a team without a list").isEmpty();
        assertThat(teamPriorityClasses.of("team-d")).as("an empty list allows none")
                .contains(new TeamPriorityClasses.Restriction("nlp", List.of()));
        assertThat(teamPriorityClasses.of("elsewhere")).as("a namespace of no team").isEmpty();

        store.update(new TeamManifest("vision", List.of("team-a", "team-b"), List.of()));
        assertThat(teamPriorityClasses.of("team-b")).as("the list removed").isEmpty();
    }
}
