package dev.platform.scheduler.kubernetes;

import com.google.gson.JsonParser;
import dev.platform.scheduler.testsupport.Manifests;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.credentials.AccessTokenAuthentication;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** client-java set up as a user of the platform sets it up, and the objects the client tests write through it. */
final class KubernetesClients {

    /**
     * Namespace team-a (labelled owner=research), a ClusterQueue {@code cq} of 4 cpus and LocalQueue {@code lq} in
     * team-a onto it.
     */
    static final String TEAM_A_AND_QUEUE = """
            apiVersion: v1
            kind: Namespace
            metadata:
              name: team-a
              labels: {owner: research}
            ---
            """ + Manifests.queue("cq", "4", "Never");

    private KubernetesClients() {
    }

    /**
     * A client of {@code server} (the {@code https://...:port/k8s} of a kubeconfig) trusting only the platform's
     * authority, with a bearer token; without a read timeout, as informers' watches need.
     */
    static ApiClient javaClient(String server, String authorityPem, String token) throws Exception {
        ApiClient client = new ClientBuilder().setBasePath(server).setVerifyingSsl(true)
                .setCertificateAuthority(authorityPem.getBytes(StandardCharsets.US_ASCII))
                .setAuthentication(new AccessTokenAuthentication(token)).build();
        client.setHttpClient(client.getHttpClient().newBuilder().readTimeout(0, TimeUnit.SECONDS).build());
        return client;
    }

    /** A JobSet of one single-pod job asking for {@code cpu}, in LocalQueue {@code queue}. */
    static DynamicKubernetesObject jobSet(String namespace, String name, String queue, String cpu) {
        return new DynamicKubernetesObject(JsonParser.parseString("""
                {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
                 "metadata": {"name": "%s", "namespace": "%s", "labels": {"kueue.x-k8s.io/queue-name": "%s"}},
                 "spec": {"replicatedJobs": [{"name": "main", "replicas": 1, "template": {"spec": {
                   "parallelism": 1, "completions": 1, "template": {"spec": {"restartPolicy": "Never",
                   "containers": [{"name": "main", "image": "busybox", "resources": {"requests": {"cpu": "%s"}}}]}}}}}]}}
                """.formatted(name, namespace, queue, cpu)).getAsJsonObject());
    }
}
