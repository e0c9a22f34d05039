package dev.platform.scheduler.kubernetes;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformProcess;
import dev.platform.scheduler.testsupport.TestIdentity;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A client-java informer on JobSets, as a controller or a dashboard written against Kubernetes keeps one, stays in
 * sync with the packaged scheduler through a restart of it: its store holds the names and resourceVersions the server
 * lists, before the restart and after JobSets are changed, deleted and added once the scheduler is back on the same
 * data directory and HTTPS port (and after what the scheduler changes itself: the deleted one's quota admits another).
 * The first stops gracefully with the informer's watch open: the watch ends at once instead of holding the stop.
 */
class JobSetInformerIT {

    private static final Duration IN_SYNC = Duration.ofSeconds(60);
    /** Far longer than a graceful stop should take: the first process's watches must end it, not this timeout. */
    private static final String SHUTDOWN_PATIENCE = "--spring.lifecycle.timeout-per-shutdown-phase=20m";

    @TempDir
    Path workDir;

    @Test
    void anInformersStoreEndsEqualToTheServersListThroughARestart() throws Exception {
        int httpsPort = PlatformProcess.freePort();
        List<String> arguments = List.of("--platform.tls.port=" + httpsPort);
        PlatformProcess first = PlatformProcess.start(workDir, "first",
                List.of("--platform.tls.port=" + httpsPort, SHUTDOWN_PATIENCE)).awaitUp();
        PlatformProcess second = null;
        assertThat(first.client().postYaml("/api/v1/manifests", Manifests.queue("cq", "2", "Never") + """
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: WorkloadPriorityClass
                metadata: {name: high}
                value: 1000
                """).status()).isEqualTo(200);
        ApiClient client = KubernetesClients.javaClient("https://localhost:" + httpsPort + "/k8s",
                Files.readString(workDir.resolve(".platform-data/tls/ca.crt")), TestIdentity.ADMIN_TOKEN);
        // a GenericKubernetesApi of untyped objects: DynamicKubernetesApi is one, with their JSON form registered
        GenericKubernetesApi<DynamicKubernetesObject, DynamicKubernetesListObject> jobSets = new DynamicKubernetesApi(
                "jobset.x-k8s.io", "v1alpha2", "jobsets", client);
        SharedInformerFactory informers = new SharedInformerFactory(client);
        SharedIndexInformer<DynamicKubernetesObject> informer = informers.sharedIndexInformerFor(jobSets,
                DynamicKubernetesObject.class, 0);
        informers.startAllRegisteredInformers();
        try {
            for (String name : List.of("a", "b", "c")) {
                jobSets.create(KubernetesClients.jobSet("team-a", name, "lq", "1")).throwsApiException();
            }
            awaitInSync(informer, jobSets);
            assertThat(cached(informer)).containsOnlyKeys("team-a/a", "team-a/b", "team-a/c");

            // the informer's watch is open: the graceful stop ends it rather than wait for it
            first.terminate();
            first.awaitExit(Duration.ofSeconds(120));
            second = PlatformProcess.start(workDir, "second", arguments).awaitUp();

            jobSets.delete("team-a", "a").throwsApiException();
            jobSets.create(KubernetesClients.jobSet("team-a", "d", "lq", "1")).throwsApiException();
            DynamicKubernetesObject c = jobSets.get("team-a", "c").throwsApiException().getObject();
            // what of a submitted JobSet may change: its WorkloadPriorityClass
            c.setMetadata(c.getMetadata().putLabelsItem("kueue.x-k8s.io/priority-class", "high"));
            jobSets.update(c).throwsApiException();

            // a's quota admits c, which waited: the scheduler's own change reaches the informer too
            await().atMost(IN_SYNC).ignoreExceptions().untilAsserted(() -> assertThat(informer.getIndexer()
                    .getByKey("team-a/c").getRaw().getAsJsonObject("spec").get("suspend").getAsBoolean()).isFalse());
            awaitInSync(informer, jobSets);
            assertThat(cached(informer)).containsOnlyKeys("team-a/b", "team-a/c", "team-a/d");
        } finally {
            informers.stopAllRegisteredInformers();
            first.close();
            if (second != null) {
                second.close();
            }
        }
    }

    /** Until the informer's store holds what the server lists, object for object and resourceVersion for version. */
    private static void awaitInSync(SharedIndexInformer<DynamicKubernetesObject> informer,
                                    GenericKubernetesApi<DynamicKubernetesObject, DynamicKubernetesListObject> jobSets) {
        await().atMost(IN_SYNC).untilAsserted(() -> assertThat(cached(informer))
                .isEqualTo(versions(jobSets.list().throwsApiException().getObject().getItems())));
    }

    private static Map<String, String> cached(SharedIndexInformer<DynamicKubernetesObject> informer) {
        return versions(informer.getIndexer().list());
    }

    private static Map<String, String> versions(List<DynamicKubernetesObject> objects) {
        return objects.stream().collect(Collectors.toMap(o -> o.getMetadata().getNamespace() + "/"
                + o.getMetadata().getName(), o -> o.getMetadata().getResourceVersion(), (x, y) -> x, TreeMap::new));
    }
}
