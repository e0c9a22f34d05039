package dev.platform.scheduler.config;

import dev.platform.api.identity.TeamRole;
import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.CohortManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.api.manifest.NamespaceManifest;
import dev.platform.api.manifest.ResourceFlavorManifest;
import dev.platform.api.manifest.TeamManifest;
import dev.platform.scheduler.testsupport.ControllerSliceTest;
import dev.platform.scheduler.refusal.Refusal;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.hasSize;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.BDDMockito.willThrow;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Reading and deleting configuration objects: the items wrapper, 404 and 409 problems, the deleting
 * caller's name passed on, and lists narrowed to what the caller's teams may read.
 */
class ConfigurationControllerTest extends ControllerSliceTest {

    private static ClusterQueueManifest queue(String name, String cohort) {
        return new ClusterQueueManifest(name, cohort, List.of(), null, null, null, null, null, null, null);
    }

    @Test
    void flavorsAreListedUnderItemsAsStored() throws Exception {
        given(configStore.list(Kind.RESOURCE_FLAVOR, ResourceFlavorManifest.class)).willReturn(List.of(
                new ResourceFlavorManifest("tpu-v6e", Map.of("cloud.google.com/gke-tpu-topology", "4x4"), null, null, null)));

        mvc.perform(get("/api/v1/resourceflavors"))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
                .andExpect(jsonPath("$.items[0].name").value("tpu-v6e"))
                .andExpect(jsonPath("$.items[0].nodeLabels['cloud.google.com/gke-tpu-topology']").value("4x4"));
    }

    @Test
    void anAbsentObjectIs404NamingItsKind() throws Exception {
        given(configStore.find(any(), any(), any())).willReturn(Optional.empty());

        mvc.perform(get("/api/v1/namespaces/team-a/localqueues/lq"))
                .andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail").value("LocalQueue \"team-a/lq\" not found"));
        mvc.perform(get("/api/v1/workloadpriorityclasses/urgent"))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.detail").value("WorkloadPriorityClass \"urgent\" not found"));
    }

    @Test
    void aDeleteIs204AndNamesTheCallerAsActor() throws Exception {
        mvc.perform(delete("/api/v1/namespaces/team-a/localqueues/lq"))
                .andExpect(status().isNoContent());
        mvc.perform(delete("/api/v1/clusterqueues/cq"))
                .andExpect(status().isNoContent());

        then(configuration).should().delete(Kind.LOCAL_QUEUE, new ObjectKey("team-a", "lq"), ADMIN.name());
        then(configuration).should().delete(Kind.CLUSTER_QUEUE, ObjectKey.cluster("cq"), ADMIN.name());
    }

    @Test
    void aDeleteOfAReferencedObjectIs409ListingTheReferences() throws Exception {
        willThrow(Refusal.conflict("ResourceFlavor \"tpu\" is still referenced by ClusterQueue cq",
                List.of(Map.of("referencedBy", "ClusterQueue cq"))))
                .given(configuration).delete(Kind.RESOURCE_FLAVOR, ObjectKey.cluster("tpu"), ADMIN.name());

        mvc.perform(delete("/api/v1/resourceflavors/tpu"))
                .andExpect(status().isConflict())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.title").value("Conflict"))
                .andExpect(jsonPath("$.errors[0].referencedBy").value("ClusterQueue cq"));
    }

    @Test
    void aTeamMemberSeesOnlyTheCohortsAndQueuesOfTheirTeams() throws Exception {
        callerIs(ENGINEER);
        given(configStore.clusterQueuesVisibleTo(ENGINEER)).willReturn(Optional.of(Set.of("vision-cq")));
        given(configStore.list(Kind.COHORT, CohortManifest.class)).willReturn(List.of(
                new CohortManifest("research", null, List.of(), null), new CohortManifest("other", null, List.of(), null)));
        given(configStore.list(Kind.CLUSTER_QUEUE, ClusterQueueManifest.class)).willReturn(List.of(
                queue("vision-cq", "research"), queue("nlp-cq", "research"), queue("lonely-cq", "other")));
        given(configStore.missingFlavorsByClusterQueue()).willReturn(Map.of());
        given(queueUsage.of(List.of("vision-cq"))).willReturn(Map.of());

        mvc.perform(get("/api/v1/cohorts"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items", hasSize(1)))
                .andExpect(jsonPath("$.items[0].name").value("research"))
                .andExpect(jsonPath("$.items[0].implicit").value(false))
                .andExpect(jsonPath("$.items[0].clusterQueues", contains("vision-cq")));
        mvc.perform(get("/api/v1/clusterqueues"))
                .andExpect(jsonPath("$.items", hasSize(1)))
                .andExpect(jsonPath("$.items[0].name").value("vision-cq"));
        mvc.perform(get("/api/v1/cohorts/other"))
                .andExpect(status().isForbidden())
                .andExpect(jsonPath("$.detail").value("Cohort \"other\" holds none of your teams' ClusterQueues"));
    }

    @Test
    void anAdminSeesEveryCohortAndImplicitOnesAndA404ForNone() throws Exception {
        given(configStore.clusterQueuesVisibleTo(ADMIN)).willReturn(Optional.empty());
        given(configStore.list(Kind.COHORT, CohortManifest.class)).willReturn(List.of());
        given(configStore.list(Kind.CLUSTER_QUEUE, ClusterQueueManifest.class)).willReturn(List.of(
                queue("a-cq", "named-only"), queue("b-cq", null)));

        mvc.perform(get("/api/v1/cohorts/named-only"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.implicit").value(true))
                .andExpect(jsonPath("$.spec").doesNotExist())
                .andExpect(jsonPath("$.clusterQueues", contains("a-cq")));
        mvc.perform(get("/api/v1/cohorts/absent"))
                .andExpect(status().isNotFound());
    }

    @Test
    void aClusterQueueShowsItsStatusUsageAndCounts() throws Exception {
        given(configStore.find(Kind.CLUSTER_QUEUE, ObjectKey.cluster("cq"), ClusterQueueManifest.class))
                .willReturn(Optional.of(queue("cq", null)));
        given(configStore.missingFlavorsByClusterQueue()).willReturn(Map.of("cq", List.of("gone")));
        given(queueUsage.of(List.of("cq"))).willReturn(Map.of("cq", new QueueUsage.Usage(List.of(
                new QueueUsage.ResourceUsage("tpu", "google.com/tpu", "32", null, null, "16", "0", "0")), 2, 1)));

        mvc.perform(get("/api/v1/clusterqueues/cq"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.name").value("cq"))
                .andExpect(jsonPath("$.spec.queueingStrategy").value("BestEffortFIFO"))
                .andExpect(jsonPath("$.status.active").value(false))
                .andExpect(jsonPath("$.status.reason").value("FlavorNotFound"))
                .andExpect(jsonPath("$.status.missingFlavors", contains("gone")))
                .andExpect(jsonPath("$.usage[0].nominalQuota").value("32"))
                .andExpect(jsonPath("$.usage[0].used").value("16"))
                .andExpect(jsonPath("$.pendingWorkloads").value(2))
                .andExpect(jsonPath("$.admittedWorkloads").value(1));
    }

    @Test
    void localQueuesNamespacesAndTeamsAreNarrowedToTheCallersTeams() throws Exception {
        callerIs(ENGINEER);
        given(configStore.list(Kind.LOCAL_QUEUE, LocalQueueManifest.class)).willReturn(List.of(
                new LocalQueueManifest("team-a", "lq", "cq", null, null),
                new LocalQueueManifest("team-b", "lq", "cq", null, null)));
        given(configStore.list(Kind.NAMESPACE, NamespaceManifest.class)).willReturn(List.of(
                new NamespaceManifest("team-a", Map.of()), new NamespaceManifest("team-b", Map.of())));
        given(configStore.list(Kind.TEAM, TeamManifest.class)).willReturn(List.of(
                new TeamManifest("vision", List.of("team-a"), List.of(new TeamManifest.Member("bob", TeamRole.Engineer))),
                new TeamManifest("nlp", List.of("team-b"), List.of())));

        mvc.perform(get("/api/v1/localqueues"))
                .andExpect(jsonPath("$.items", hasSize(1)))
                .andExpect(jsonPath("$.items[0].namespace").value("team-a"))
                .andExpect(jsonPath("$.items[0].clusterQueue").value("cq"));
        mvc.perform(get("/api/v1/namespaces"))
                .andExpect(jsonPath("$.items", hasSize(1)))
                .andExpect(jsonPath("$.items[0].name").value("team-a"));
        mvc.perform(get("/api/v1/teams"))
                .andExpect(jsonPath("$.items", hasSize(1)))
                .andExpect(jsonPath("$.items[0].name").value("vision"))
                .andExpect(jsonPath("$.items[0].members[0].role").value("Engineer"));
    }

    @Test
    void aNamespacesLocalQueuesAreThoseInIt() throws Exception {
        given(configStore.list(Kind.LOCAL_QUEUE, LocalQueueManifest.class)).willReturn(List.of(
                new LocalQueueManifest("team-a", "lq", "cq", null, null),
                new LocalQueueManifest("team-b", "other", "cq", null, null)));

        mvc.perform(get("/api/v1/namespaces/team-b/localqueues"))
                .andExpect(jsonPath("$.items", hasSize(1)))
                .andExpect(jsonPath("$.items[0].name").value("other"));
    }
}
