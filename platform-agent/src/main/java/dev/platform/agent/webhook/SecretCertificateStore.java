package dev.platform.agent.webhook;

import dev.platform.agent.cluster.KubernetesCluster;
import dev.platform.agent.cluster.KubernetesCluster.ClusterCallException;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1SecretList;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The certificates in a Secret of the agent's namespace (type kubernetes.io/tls, with ca.crt and ca.key besides). */
public final class SecretCertificateStore implements CertificateStore {

    private final GenericKubernetesApi<V1Secret, V1SecretList> secrets;
    private final String namespace;
    private final String name;

    public SecretCertificateStore(ApiClient client, String namespace, String name) {
        this.secrets = new GenericKubernetesApi<>(V1Secret.class, V1SecretList.class, "", "v1", "secrets", client);
        this.namespace = namespace;
        this.name = name;
    }

    @Override
    public Optional<Stored> read() {
        KubernetesApiResponse<V1Secret> response = KubernetesCluster.call(() -> secrets.get(namespace, name));
        if (response.getHttpStatusCode() == 404) {
            return Optional.empty();
        }
        V1Secret secret = succeeded(response, "read").getObject();
        Map<String, byte[]> data = secret.getData() == null ? Map.of() : new HashMap<>(secret.getData());
        return Optional.of(new Stored(data, secret.getMetadata().getResourceVersion()));
    }

    @Override
    public boolean create(Map<String, byte[]> data) {
        KubernetesApiResponse<V1Secret> response = KubernetesCluster.call(() -> secrets.create(secret(data, null)));
        return response.getHttpStatusCode() != 409 && succeeded(response, "create") != null;
    }

    @Override
    public boolean replace(Map<String, byte[]> data, String version) {
        KubernetesApiResponse<V1Secret> response = KubernetesCluster.call(() -> secrets.update(secret(data, version)));
        return response.getHttpStatusCode() != 409 && succeeded(response, "update") != null;
    }

    private V1Secret secret(Map<String, byte[]> data, String version) {
        return new V1Secret().apiVersion("v1").kind("Secret").type("kubernetes.io/tls")
                .metadata(new V1ObjectMeta().name(name).namespace(namespace).resourceVersion(version)
                        .putLabelsItem("app.kubernetes.io/component", "webhook-certificate"))
                .data(new HashMap<>(data));
    }

    private KubernetesApiResponse<V1Secret> succeeded(KubernetesApiResponse<V1Secret> response, String action) {
        if (!response.isSuccess()) {
            throw new ClusterCallException(response.getHttpStatusCode(), "could not " + action + " Secret " + namespace
                    + "/" + name + " (the webhook's certificates): " + response.getHttpStatusCode() + " "
                    + (response.getStatus() == null ? "" : response.getStatus().getMessage()), null);
        }
        return response;
    }
}
