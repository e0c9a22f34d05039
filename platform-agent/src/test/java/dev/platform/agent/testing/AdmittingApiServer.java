package dev.platform.agent.testing;

import dev.platform.agent.Agent;
import dev.platform.agent.cluster.JobKind;
import dev.platform.agent.webhook.AdmissionWebhook;
import dev.platform.agent.webhook.ManagedJobs;
import dev.platform.agent.webhook.ServingKeys;
import dev.platform.agent.webhook.WebhookCertificate;
import dev.platform.agent.webhook.WebhookServer;
import dev.platform.agent.testing.ApiServerAdmission.Answer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * What kube-apiserver does with a create once the agent's webhook configurations are installed, in front of
 * fabric8's mock API server (which has no admission chain): the object goes through the agent's mutating
 * webhook over HTTPS, trusting only the webhook's CA, its JSONPatch is applied, the result goes through the
 * validating webhook, and only an allowed object is stored. A refusal is thrown, as kubectl would print it.
 */
public final class AdmittingApiServer implements AutoCloseable {

    private final JsonMapper json = Agent.json();
    private final KubernetesClient cluster;
    private final WebhookServer webhook;
    private final ApiServerAdmission admission;

    /** The agent's webhook for JobSets and Jobs that name a queue (Kueue's defaults), served on a free loopback port. */
    public AdmittingApiServer(KubernetesClient cluster) {
        this.cluster = cluster;
        WebhookCertificate certificate = WebhookCertificate.generate(List.of("localhost", "127.0.0.1"), Instant.now());
        this.webhook = new WebhookServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new AdmissionWebhook(ManagedJobs.queueNamedOnly(), json, new SimpleMeterRegistry()),
                new ServingKeys(certificate.identity()));
        webhook.start();
        this.admission = new ApiServerAdmission(URI.create("https://localhost:" + webhook.port()),
                certificate.caBundle(Instant.now()));
    }

    /** {@code kubectl create} of a JobSet in {@code namespace}, as the API server admits it; returns what it stored. */
    public GenericKubernetesResource createJobSet(String namespace, JsonNode jobSet) {
        return create(namespace, jobSet);
    }

    /**
     * {@code kubectl create} of a JobSet or a batch Job in {@code namespace}, reviewed at the paths of its kind, as
     * the API server admits it; returns what it stored.
     */
    public GenericKubernetesResource create(String namespace, JsonNode manifest) {
        ObjectNode object = (ObjectNode) manifest.deepCopy();
        object.withObject("/metadata").put("namespace", namespace);
        JobKind kind = JobKind.ofManifest(object.path("apiVersion").asString(""), object.path("kind").asString(""))
                .orElseThrow(() -> new IllegalArgumentException("the webhook reviews JobSets and Jobs, not "
                        + object.path("kind").asString()));
        Answer mutated = admission.review(kind.mutatePath(), "CREATE", object, null, false);
        requireAllowed(mutated, object);
        ObjectNode patched = ApiServerAdmission.apply(object, mutated.patch());
        requireAllowed(admission.review(kind.validatePath(), "CREATE", patched, null, false), patched);
        GenericKubernetesResource resource = cluster.getKubernetesSerialization()
                .unmarshal(json.writeValueAsString(patched), GenericKubernetesResource.class);
        return cluster.resource(resource).inNamespace(namespace).create();
    }

    private static void requireAllowed(Answer answer, JsonNode object) {
        if (!answer.allowed()) {
            throw new IllegalStateException("admission webhook denied the request for "
                    + object.at("/metadata/name").asString() + ": " + answer.status().path("message").asString());
        }
    }

    @Override
    public void close() {
        webhook.close();
    }
}
