package dev.platform.scheduler.kubernetes;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.TestIdentity;
import dev.platform.scheduler.tls.HttpsEndpoint;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ListMeta;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.ListOptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * client-java, the Kubernetes client for Java, against the platform: Kueue Workloads read into typed classes (its
 * conditions as {@code V1Condition}, whose required fields client-java checks), JobSets as dynamic objects, written
 * through it as well, paged with {@code limit} and {@code continue}, and namespaces and events as its own typed models.
 */
class ClientJavaTest extends PlatformApplicationTest {

    @Value("${" + HttpsEndpoint.LOCAL_PORT_PROPERTY + "}")
    int httpsPort;

    @Autowired
    HttpsEndpoint https;

    private ApiClient client;

    @BeforeEach
    void queueAndClient() throws Exception {
        assertThat(api.postYaml("/api/v1/manifests", KubernetesClients.TEAM_A_AND_QUEUE).status()).isEqualTo(200);
        client = KubernetesClients.javaClient("https://localhost:" + httpsPort + "/k8s",
                https.authorityPem().orElseThrow(), TestIdentity.ADMIN_TOKEN);
    }

    @Test
    void listsKueueWorkloadsAsTypedObjectsAndJobSetsAsDynamicOnes() throws Exception {
        for (String name : List.of("a", "b")) {
            assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.onePodJobSet(name,
                    Map.of("kueue.x-k8s.io/queue-name", "lq", "tier", name.equals("a") ? "gold" : "bronze"), Map.of(),
                    "1")).status()).isEqualTo(201);
        }
        DynamicKubernetesApi jobSets = new DynamicKubernetesApi("jobset.x-k8s.io", "v1alpha2", "jobsets", client);
        DynamicKubernetesObject created = jobSets.create(KubernetesClients.jobSet("team-a", "c", "lq", "2"))
                .throwsApiException().getObject();
        assertThat(created.getMetadata().getUid()).isNotBlank();
        assertThat(created.getMetadata().getResourceVersion()).matches("\\d+");

        GenericKubernetesApi<Workload, WorkloadList> kueueWorkloads = new GenericKubernetesApi<>(Workload.class,
                WorkloadList.class, "kueue.x-k8s.io", "v1beta2", "workloads", client);
        WorkloadList workloads = kueueWorkloads.list("team-a").throwsApiException().getObject();

        assertThat(workloads.getApiVersion()).isEqualTo("kueue.x-k8s.io/v1beta2");
        assertThat(workloads.getKind()).isEqualTo("WorkloadList");
        long listed = Long.parseLong(workloads.getMetadata().getResourceVersion());
        assertThat(workloads.getItems()).hasSize(3).allSatisfy(w -> {
            assertThat(w.getMetadata().getNamespace()).isEqualTo("team-a");
            assertThat(Long.parseLong(w.getMetadata().getResourceVersion())).isLessThanOrEqualTo(listed);
            assertThat(w.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
                assertThat(owner.getKind()).isEqualTo("JobSet");
                assertThat(owner.getApiVersion()).isEqualTo("jobset.x-k8s.io/v1alpha2");
                assertThat(w.getMetadata().getName()).startsWith("jobset-" + owner.getName() + "-");
            });
            assertThat(w.spec.queueName).isEqualTo("lq");
        });
        Workload c = workloads.getItems().stream()
                .filter(w -> w.getMetadata().getOwnerReferences().get(0).getName().equals("c")).findFirst().orElseThrow();
        assertThat(c.getMetadata().getOwnerReferences().get(0).getUid()).isEqualTo(created.getMetadata().getUid());
        assertThat(c.spec.podSets).singleElement().satisfies(podSet -> {
            assertThat(podSet.name).isEqualTo("main");
            assertThat(podSet.count).isEqualTo(1);
        });

        // read into client-java's V1Condition, which refuses a condition without any of its required fields
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(kueueWorkloads.get("team-a",
                c.getMetadata().getName()).throwsApiException().getObject().status.conditions).anySatisfy(admitted -> {
            assertThat(admitted.getType()).isEqualTo("Admitted");
            assertThat(admitted.getStatus()).isEqualTo("True");
            assertThat(admitted.getReason()).isNotBlank();
            assertThat(admitted.getLastTransitionTime()).isNotNull();
        }));

        ListOptions goldTier = new ListOptions();
        goldTier.setLabelSelector("tier=gold");
        DynamicKubernetesListObject gold = jobSets.list("team-a", goldTier).throwsApiException().getObject();
        assertThat(gold.getItems()).extracting(o -> o.getMetadata().getName()).containsExactly("a");
        // submitted to the namespace's REST URL, its manifest names no namespace: the object still says where it is
        assertThat(gold.getItems().get(0).getMetadata().getNamespace()).isEqualTo("team-a");
        assertThat(gold.getItems().get(0).getRaw().getAsJsonObject("spec").get("suspend").isJsonPrimitive()).isTrue();
    }

    @Test
    void pagesWithLimitAndContinue() throws Exception {
        for (String name : List.of("p1", "p2", "p3")) {
            assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.onePodJobSet(name,
                    Map.of("kueue.x-k8s.io/queue-name", "lq"), Map.of(), "1")).status()).isEqualTo(201);
        }
        DynamicKubernetesApi jobSets = new DynamicKubernetesApi("jobset.x-k8s.io", "v1alpha2", "jobsets", client);
        List<List<String>> pages = new ArrayList<>();
        String next = null;
        do {
            ListOptions page = new ListOptions();
            page.setLimit(2);
            page.setContinue(next);
            DynamicKubernetesListObject list = jobSets.list(page).throwsApiException().getObject();
            pages.add(list.getItems().stream().map(o -> o.getMetadata().getName()).toList());
            next = list.getMetadata().getContinue();
        } while (next != null && !next.isEmpty() && pages.size() < 3);

        assertThat(pages).containsExactly(List.of("p1", "p2"), List.of("p3"));
    }

    @Test
    void readsNamespacesAndEventsIntoItsOwnModels() throws Exception {
        assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.onePodJobSet("e",
                Map.of("kueue.x-k8s.io/queue-name", "lq"), Map.of(), "1")).status()).isEqualTo(201);
        CoreV1Api core = new CoreV1Api(client);

        List<V1Namespace> namespaces = core.listNamespace().execute().getItems();
        List<CoreV1Event> events = core.listNamespacedEvent("team-a").execute().getItems();

        assertThat(namespaces).anySatisfy(n -> {
            assertThat(n.getMetadata().getName()).isEqualTo("team-a");
            assertThat(n.getMetadata().getLabels()).containsEntry("owner", "research");
            assertThat(n.getMetadata().getCreationTimestamp()).isNotNull();
        });
        assertThat(events).isNotEmpty().anySatisfy(e -> {
            assertThat(e.getInvolvedObject().getKind()).isEqualTo("JobSet");
            assertThat(e.getInvolvedObject().getName()).isEqualTo("e");
            assertThat(e.getType()).isEqualTo("Normal");
            assertThat(e.getLastTimestamp()).isNotNull();
        });
    }

    @Test
    void aWatchAskedAsPythonAsksIsOneChunkedStreamAsGosClientRequires() {
        assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.onePodJobSet("w",
                Map.of("kueue.x-k8s.io/queue-name", "lq"), Map.of(), "1")).status()).isEqualTo(201);

        // the Python client writes its booleans as Python does
        PlatformClient.Response watch = api.get("/k8s/apis/jobset.x-k8s.io/v1alpha2/namespaces/team-a/jobsets"
                + "?watch=True&timeoutSeconds=1");

        assertThat(watch.status()).isEqualTo(200);
        assertThat(watch.headers().allValues("Transfer-Encoding")).containsExactly("chunked");
        assertThat(watch.body().lines().findFirst()).hasValueSatisfying(event -> assertThat(event)
                .startsWith("{\"type\":\"ADDED\"").contains("\"name\":\"w\"", "\"namespace\":\"team-a\""));
    }

    @Test
    void anUpdateThatOnlyLabelsAJobSetWithAPriorityClassIsANewResourceVersion() throws Exception {
        assertThat(api.postYaml("/api/v1/manifests", """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: WorkloadPriorityClass
                metadata: {name: relabel-high}
                value: 900
                """).status()).isEqualTo(200);
        DynamicKubernetesApi jobSets = new DynamicKubernetesApi("jobset.x-k8s.io", "v1alpha2", "jobsets", client);
        jobSets.create(KubernetesClients.jobSet("team-a", "relabelled", "lq", "1")).throwsApiException();

        // read, change, write; again on a 409 when the scheduler changed it meanwhile, as a controller does
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
            DynamicKubernetesObject read = jobSets.get("team-a", "relabelled").throwsApiException().getObject();
            // a dynamic object's metadata is a copy of its JSON: changed, it is set back
            read.setMetadata(read.getMetadata().putLabelsItem("kueue.x-k8s.io/priority-class", "relabel-high"));
            DynamicKubernetesObject updated = jobSets.update(read).throwsApiException().getObject();

            assertThat(Long.parseLong(updated.getMetadata().getResourceVersion()))
                    .isGreaterThan(Long.parseLong(read.getMetadata().getResourceVersion()));
            assertThat(updated.getMetadata().getLabels()).containsEntry("kueue.x-k8s.io/priority-class",
                    "relabel-high");
        });
    }

    @Test
    void aClusterQueuesConditionsAreWholeMetaV1Conditions() throws Exception {
        GenericKubernetesApi<ClusterQueue, ClusterQueueList> clusterQueues = new GenericKubernetesApi<>(
                ClusterQueue.class, ClusterQueueList.class, "kueue.x-k8s.io", "v1beta2", "clusterqueues", client);

        ClusterQueue queue = clusterQueues.get("cq").throwsApiException().getObject();

        assertThat(queue.status.conditions).singleElement().satisfies(active -> {
            assertThat(active.getType()).isEqualTo("Active");
            assertThat(active.getStatus()).isEqualTo("True");
            assertThat(active.getLastTransitionTime()).isNotNull();
        });
        assertThat(clusterQueues.list().throwsApiException().getObject().getItems())
                .allSatisfy(q -> assertThat(q.status.conditions).allSatisfy(c ->
                        assertThat(c.getLastTransitionTime()).isNotNull()));
    }

    @Test
    void aTeamMembersWatchOfEveryNamespaceSendsOnlyTheTeamsChanges() throws Exception {
        assertThat(api.postYaml("/api/v1/manifests", """
                apiVersion: v1
                kind: Namespace
                metadata: {name: team-z}
                ---
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: watchers}
                spec:
                  namespaces: [team-a]
                  members: [{user: wanda, role: Engineer}]
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: lq, namespace: team-z}
                spec: {clusterQueue: cq}
                """).status()).isEqualTo(200);
        assertThat(api.postJson("/api/v1/users", "{\"name\":\"wanda\",\"password\":\"a-password-for-wanda-1\"}")
                .status()).isIn(201, 409);
        String token = api.postJson("/api/v1/tokens", "{\"user\":\"wanda\",\"description\":\"watch\"}").json()
                .get("token").asString();
        String revision = api.get("/k8s/apis/jobset.x-k8s.io/v1alpha2/jobsets?limit=1").json().get("metadata")
                .get("resourceVersion").asString();
        PlatformClient wanda = api.as(token);

        // an Admin's watch beside hers: both read the one feed of JobSet changes
        CompletableFuture<PlatformClient.Response> herWatch = CompletableFuture.supplyAsync(() -> wanda.get(
                "/k8s/apis/jobset.x-k8s.io/v1alpha2/jobsets?watch=true&timeoutSeconds=8&resourceVersion=" + revision));
        CompletableFuture<PlatformClient.Response> adminWatch = CompletableFuture.supplyAsync(() -> api.get(
                "/k8s/apis/jobset.x-k8s.io/v1alpha2/jobsets?watch=true&timeoutSeconds=8&resourceVersion=" + revision));
        for (String namespace : List.of("team-z", "team-a")) {
            assertThat(api.postYaml("/api/v1/namespaces/" + namespace + "/workloads", Manifests.onePodJobSet(
                    "watched-" + namespace, Map.of("kueue.x-k8s.io/queue-name", "lq"), Map.of(), "1")).status())
                    .isEqualTo(201);
        }

        List<String> hers = herWatch.get(60, TimeUnit.SECONDS).body().lines().toList();
        List<String> admins = adminWatch.get(60, TimeUnit.SECONDS).body().lines().toList();
        assertThat(admins).anySatisfy(event -> assertThat(event).contains("\"name\":\"watched-team-z\""));
        assertThat(hers).anySatisfy(event -> assertThat(event).contains("\"name\":\"watched-team-a\""))
                .noneSatisfy(event -> assertThat(event).contains("team-z"));
    }

    /** What every object and list says of its type. */
    public abstract static class Typed {
        String apiVersion;
        String kind;

        public String getApiVersion() {
            return apiVersion;
        }

        public String getKind() {
            return kind;
        }
    }

    /** Kueue's Workload, as much of it as a client of Kueue reads. */
    public static class Workload extends Typed implements KubernetesObject {
        V1ObjectMeta metadata;
        WorkloadSpec spec;
        WorkloadStatus status;

        @Override
        public V1ObjectMeta getMetadata() {
            return metadata;
        }
    }

    public static class WorkloadSpec {
        String queueName;
        List<PodSet> podSets;
    }

    public static class PodSet {
        String name;
        Integer count;
    }

    public static class WorkloadStatus {
        List<V1Condition> conditions;
    }

    public static class WorkloadList extends Typed implements KubernetesListObject {
        V1ListMeta metadata;
        List<Workload> items;

        @Override
        public V1ListMeta getMetadata() {
            return metadata;
        }

        @Override
        public List<Workload> getItems() {
            return items;
        }
    }

    /** Kueue's ClusterQueue, its conditions as client-java reads them. */
    public static class ClusterQueue extends Typed implements KubernetesObject {
        V1ObjectMeta metadata;
        WorkloadStatus status;

        @Override
        public V1ObjectMeta getMetadata() {
            return metadata;
        }
    }

    public static class ClusterQueueList extends Typed implements KubernetesListObject {
        V1ListMeta metadata;
        List<ClusterQueue> items;

        @Override
        public V1ListMeta getMetadata() {
            return metadata;
        }

        @Override
        public List<ClusterQueue> getItems() {
            return items;
        }
    }
}
