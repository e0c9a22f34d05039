package dev.platform.agent;

import dev.platform.agent.cluster.DeliveredObjects;
import dev.platform.agent.testing.MockKubernetes;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeList;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An informer is synced once its cache holds the list, while its handlers get the objects later on a thread of
 * their own: the agent waits for the handlers too, or its first FULL report would miss pools.
 */
class DeliveredObjectsTest {

    private MockKubernetes kube;
    private SharedInformerFactory informers;
    private final CountDownLatch handlerMayGoOn = new CountDownLatch(1);
    private final CountDownLatch handlerReached = new CountDownLatch(1);

    @BeforeEach
    void startCluster() throws Exception {
        kube = new MockKubernetes();
        for (String name : new String[] {"slice-a-0", "slice-a-1"}) {
            kube.client().nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata().build())
                    .create();
        }
    }

    @AfterEach
    void stop() {
        handlerMayGoOn.countDown();
        if (informers != null) {
            informers.stopAllRegisteredInformers();
        }
        kube.close();
    }

    @Test
    void notCaughtUpWhileTheHandlerHasNotSeenWhatTheCacheHolds() throws InterruptedException {
        informers = new SharedInformerFactory(kube.apiClient());
        SharedIndexInformer<V1Node> nodes = informers.sharedIndexInformerFor(new GenericKubernetesApi<>(
                V1Node.class, V1NodeList.class, "", "v1", "nodes", kube.apiClient()), V1Node.class, 0);
        DeliveredObjects<V1Node> delivered = new DeliveredObjects<>();
        nodes.addEventHandler(delivered.noting(new ResourceEventHandler<>() {
            @Override
            public void onAdd(V1Node node) {
                handlerReached.countDown();
                try {
                    handlerMayGoOn.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void onUpdate(V1Node oldNode, V1Node newNode) {
            }

            @Override
            public void onDelete(V1Node node, boolean deletedFinalStateUnknown) {
            }
        }));
        informers.startAllRegisteredInformers();

        await().atMost(Duration.ofSeconds(15)).until(nodes::hasSynced);
        assertThat(handlerReached.await(15, TimeUnit.SECONDS)).isTrue();
        assertThat(nodes.getIndexer().listKeys()).containsExactlyInAnyOrder("slice-a-0", "slice-a-1");
        assertThat(delivered.caughtUpWith(nodes)).isFalse();

        handlerMayGoOn.countDown();
        await().atMost(Duration.ofSeconds(15)).until(() -> delivered.caughtUpWith(nodes));
    }
}
