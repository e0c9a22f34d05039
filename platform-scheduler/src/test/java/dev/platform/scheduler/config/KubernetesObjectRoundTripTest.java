package dev.platform.scheduler.config;

import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kubectl's habit: every kind read back with {@code Accept: application/yaml} is a Kubernetes object (apiVersion,
 * kind, metadata, and spec and status where the kind has them) that {@code POST /api/v1/manifests} takes back as
 * {@code unchanged}; a workload too, after its priority and active flag changed.
 */
public class KubernetesObjectRoundTripTest extends PlatformApplicationTest {

    public static final String CONFIGURATION = """
            apiVersion: v1
            kind: Namespace
            metadata: {name: team-a, labels: {team: ml}}
            ---
            apiVersion: platform.dev/v1
            kind: Team
            metadata: {name: ml}
            spec:
              namespaces: [team-a]
              members: [{user: alice, role: TeamLead}, {user: bob, role: Engineer}]
            ---
            apiVersion: kueue.x-k8s.io/v1beta1
            kind: ResourceFlavor
            metadata: {name: spot}
            spec:
              nodeLabels: {instance: spot, cloud.google.com/gke-tpu-accelerator: tpu-v6e-slice}
              nodeTaints: [{key: spot, value: "true", effect: NoSchedule}]
              tolerations: [{key: spot, operator: Exists, effect: NoSchedule}]
              topologyName: default
            ---
            apiVersion: kueue.x-k8s.io/v1beta1
            kind: Cohort
            metadata: {name: root}
            ---
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: Cohort
            metadata: {name: org}
            spec:
              parentName: root
              fairSharing: {weight: "2"}
              resourceGroups:
              - coveredResources: [cpu]
                flavors: [{name: spot, resources: [{name: cpu, nominalQuota: "1500m"}]}]
            ---
            apiVersion: kueue.x-k8s.io/v1beta1
            kind: ClusterQueue
            metadata: {name: team-a-cq}
            spec:
              cohort: org
              queueingStrategy: StrictFIFO
              stopPolicy: Hold
              namespaceSelector:
                matchLabels: {team: ml}
                matchExpressions: [{key: tier, operator: NotIn, values: [batch]}]
              flavorFungibility: {whenCanBorrow: TryNextFlavor, whenCanPreempt: TryNextFlavor,
                                  preference: PreemptionOverBorrowing}
              preemption:
                withinClusterQueue: LowerOrNewerEqualPriority
                reclaimWithinCohort: Any
                borrowWithinCohort: {policy: LowerPriority, maxPriorityThreshold: 100}
              fairSharing: {weight: "0.5"}
              resourceGroups:
              - coveredResources: [cpu, memory]
                flavors:
                - name: spot
                  resources:
                  - {name: cpu, nominalQuota: "8", borrowingLimit: "2", lendingLimit: "4"}
                  - {name: memory, nominalQuota: 32Gi}
            ---
            apiVersion: kueue.x-k8s.io/v1beta1
            kind: ClusterQueue
            metadata: {name: open-cq}
            spec:
              resourceGroups:
              - coveredResources: [cpu]
                flavors: [{name: spot, resources: [{name: cpu, nominalQuota: "4"}]}]
            ---
            apiVersion: kueue.x-k8s.io/v1beta1
            kind: LocalQueue
            metadata: {name: lq, namespace: team-a}
            spec: {clusterQueue: open-cq, stopPolicy: HoldAndDrain}
            ---
            apiVersion: kueue.x-k8s.io/v1beta1
            kind: WorkloadPriorityClass
            metadata: {name: batch}
            value: 100
            description: batch jobs
            ---
            apiVersion: kueue.x-k8s.io/v1beta1
            kind: WorkloadPriorityClass
            metadata: {name: urgent}
            value: 1000
            ---
            apiVersion: scheduling.k8s.io/v1
            kind: PriorityClass
            metadata: {name: high}
            value: 2000000
            preemptionPolicy: Never
            description: high priority
            """;

    public static final String WORKLOADS = """
            apiVersion: jobset.x-k8s.io/v1alpha2
            kind: JobSet
            metadata:
              name: trainer
              namespace: team-a
              labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/priority-class: batch}
            spec:
              replicatedJobs:
              - name: slice
                replicas: 2
                template:
                  spec:
                    parallelism: 2
                    template:
                      spec:
                        containers: [{name: c, image: python:3.12, resources: {requests: {cpu: "1"}}}]
            ---
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: Workload
            metadata: {name: raw, namespace: team-a}
            spec:
              queueName: lq
              active: false
              priority: 7
              podSets:
              - name: main
                count: 1
                template:
                  spec:
                    containers: [{name: c, resources: {requests: {cpu: "1"}}}]
            """;

    /** Every single-object path, with the kind and apiVersion it must read back as. */
    static final List<List<String>> OBJECTS = List.of(
            List.of("/api/v1/namespaces/team-a", "Namespace", "v1"),
            List.of("/api/v1/teams/ml", "Team", "platform.dev/v1"),
            List.of("/api/v1/resourceflavors/spot", "ResourceFlavor", "kueue.x-k8s.io/v1beta2"),
            List.of("/api/v1/cohorts/root", "Cohort", "kueue.x-k8s.io/v1beta2"),
            List.of("/api/v1/cohorts/org", "Cohort", "kueue.x-k8s.io/v1beta2"),
            List.of("/api/v1/clusterqueues/team-a-cq", "ClusterQueue", "kueue.x-k8s.io/v1beta2"),
            List.of("/api/v1/clusterqueues/open-cq", "ClusterQueue", "kueue.x-k8s.io/v1beta2"),
            List.of("/api/v1/namespaces/team-a/localqueues/lq", "LocalQueue", "kueue.x-k8s.io/v1beta2"),
            List.of("/api/v1/workloadpriorityclasses/batch", "WorkloadPriorityClass", "kueue.x-k8s.io/v1beta2"),
            List.of("/api/v1/priorityclasses/high", "PriorityClass", "scheduling.k8s.io/v1"),
            List.of("/api/v1/namespaces/team-a/workloads/trainer", "JobSet", "jobset.x-k8s.io/v1alpha2"),
            List.of("/api/v1/namespaces/team-a/workloads/raw", "Workload", "kueue.x-k8s.io/v1beta2"));

    @Test
    void everyKindReadAsYamlAppliesBackUnchanged() {
        assertThat(api.postYaml("/api/v1/manifests", CONFIGURATION).status()).isEqualTo(200);
        assertThat(api.postYaml("/api/v1/manifests", WORKLOADS).status()).isEqualTo(200);
        for (List<String> object : OBJECTS) {
            assertRoundTrip(object.get(0), object.get(1), object.get(2));
        }
    }

    @Test
    void aWorkloadReadsBackWithItsChangedPriorityAndActiveFlagAndAppliesUnchanged() {
        assertThat(api.postYaml("/api/v1/manifests", CONFIGURATION).status()).isEqualTo(200);
        assertThat(api.postYaml("/api/v1/manifests", WORKLOADS).status()).isEqualTo(200);
        String trainer = "/api/v1/namespaces/team-a/workloads/trainer";
        Response patched = api.send("PATCH", trainer, Map.of(), "application/merge-patch+json",
                "{\"metadata\": {\"labels\": {\"kueue.x-k8s.io/priority-class\": \"urgent\"}}}");
        assertThat(patched.status()).as(patched.body()).isEqualTo(200);
        assertThat(patched.json().get("priority").asInt()).isEqualTo(1000);
        assertThat(api.post(trainer + "/stop", "application/json", "").status()).isEqualTo(200);
        assertThat(api.post("/api/v1/namespaces/team-a/workloads/raw/resume", "application/json", "").status())
                .isEqualTo(200);

        Map<String, Object> object = assertRoundTrip(trainer, "JobSet", "jobset.x-k8s.io/v1alpha2");
        assertThat(map(map(object.get("metadata")).get("labels"))).containsEntry("kueue.x-k8s.io/priority-class",
                "urgent");
        assertThat(map(object.get("status"))).containsEntry("active", false).containsEntry("priority", 1000);
        Map<String, Object> raw = assertRoundTrip("/api/v1/namespaces/team-a/workloads/raw", "Workload",
                "kueue.x-k8s.io/v1beta2");
        assertThat(map(raw.get("spec"))).containsEntry("active", true);
    }

    @Test
    void aWorkloadAppliedWithOnlyItsMutableFieldsChangedIsUpdated() {
        assertThat(api.postYaml("/api/v1/manifests", CONFIGURATION).status()).isEqualTo(200);
        assertThat(api.postYaml("/api/v1/manifests", WORKLOADS).status()).isEqualTo(200);
        Response applied = api.postYaml("/api/v1/manifests", WORKLOADS
                .replace("kueue.x-k8s.io/priority-class: batch", "kueue.x-k8s.io/priority-class: urgent")
                .replace("active: false", "active: true"));
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        assertThat(applied.json().get("results").valueStream().map(r -> r.get("action").asString()))
                .containsExactly("updated", "updated");
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/trainer").json().get("priority").asInt())
                .isEqualTo(1000);
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/raw").json().get("active").asBoolean()).isTrue();

        Response changed = api.postYaml("/api/v1/manifests", WORKLOADS.replace("replicas: 2", "replicas: 3"));
        assertThat(changed.status()).as("anything else of a submitted workload is immutable").isEqualTo(409);
    }

    @Test
    void aWorkloadSubmittedWithoutItsNamespaceReadsBackInKubectlsOrderWithItAndAppliesBackWhereItCameFrom() {
        assertThat(api.postYaml("/api/v1/manifests", CONFIGURATION).status()).isEqualTo(200);
        Response submitted = api.postYaml("/api/v1/namespaces/team-a/workloads", """
                kind: JobSet
                spec:
                  replicatedJobs:
                  - name: slice
                    template: {spec: {template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}}
                metadata:
                  labels: {kueue.x-k8s.io/queue-name: lq}
                  name: shuffled
                apiVersion: jobset.x-k8s.io/v1alpha2
                """);
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);

        Map<String, Object> object = assertRoundTrip("/api/v1/namespaces/team-a/workloads/shuffled", "JobSet",
                "jobset.x-k8s.io/v1alpha2");

        assertThat(object.keySet()).containsExactly("apiVersion", "kind", "metadata", "spec", "status");
        assertThat(map(object.get("metadata")).keySet())
                .containsExactly("name", "namespace", "uid", "creationTimestamp", "labels");
        assertThat(map(object.get("metadata"))).containsEntry("namespace", "team-a");
        assertThat(api.get("/api/v1/namespaces/default/workloads/shuffled").status()).isEqualTo(404);
        String page = api.get("/namespaces/team-a/workloads/shuffled", "text/html").body();
        assertThat(page).containsPattern("(?s)apiVersion: jobset.x-k8s.io/v1alpha2\\s+kind: JobSet\\s+metadata:\\s+"
                + "name: shuffled\\s+namespace: team-a\\s+uid: \\S+\\s+creationTimestamp: \\S+\\s+labels:");
    }

    private Map<String, Object> assertRoundTrip(String path, String kind, String apiVersion) {
        Response read = api.get(path, "application/yaml");
        assertThat(read.status()).as(path + ": " + read.body()).isEqualTo(200);
        assertThat(read.contentType()).as(path).startsWith("application/yaml");
        Map<String, Object> object = new Yaml(new SafeConstructor(new LoaderOptions())).load(read.body());
        assertThat(object).as(path).containsEntry("kind", kind).containsEntry("apiVersion", apiVersion)
                .containsKey("metadata");
        Response applied = api.postYaml("/api/v1/manifests", read.body());
        assertThat(applied.status()).as(path + " applied back: " + applied.body() + "\n" + read.body())
                .isEqualTo(200);
        assertThat(applied.json().at("/results/0/action").asString()).as(path + " applied back\n" + read.body())
                .isEqualTo("unchanged");
        return object;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }
}
