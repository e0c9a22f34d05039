package dev.platform.agent.webhook;

import dev.platform.agent.cluster.KubernetesCluster;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfigurationList;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfigurationList;
import io.kubernetes.client.openapi.models.AdmissionregistrationV1WebhookClientConfig;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the CA into the {@code caBundle} of every webhook of the agent's Mutating- and
 * ValidatingWebhookConfiguration (JSON patches of that field alone), as Kueue's certificate manager injects it;
 * a webhook whose bundle is already right is left alone. A configuration that is absent is logged once: the API
 * server then does not call the webhook.
 */
public final class CaBundlePublisher implements Consumer<String> {

    private static final Logger log = LoggerFactory.getLogger(CaBundlePublisher.class);

    private final GenericKubernetesApi<V1MutatingWebhookConfiguration, V1MutatingWebhookConfigurationList> mutating;
    private final GenericKubernetesApi<V1ValidatingWebhookConfiguration, V1ValidatingWebhookConfigurationList> validating;
    private final String mutatingName;
    private final String validatingName;
    private final Set<String> missingLogged = new HashSet<>();

    public CaBundlePublisher(ApiClient client, String mutatingName, String validatingName) {
        this.mutating = new GenericKubernetesApi<>(V1MutatingWebhookConfiguration.class,
                V1MutatingWebhookConfigurationList.class, "admissionregistration.k8s.io", "v1",
                "mutatingwebhookconfigurations", client);
        this.validating = new GenericKubernetesApi<>(V1ValidatingWebhookConfiguration.class,
                V1ValidatingWebhookConfigurationList.class, "admissionregistration.k8s.io", "v1",
                "validatingwebhookconfigurations", client);
        this.mutatingName = mutatingName;
        this.validatingName = validatingName;
    }

    @Override
    public synchronized void accept(String caBundle) {
        byte[] bundle = caBundle.getBytes(StandardCharsets.US_ASCII);
        publish(mutating, mutatingName, bundle, c -> c.getWebhooks() == null ? List.of()
                : c.getWebhooks().stream().map(w -> w.getClientConfig()).toList());
        publish(validating, validatingName, bundle, c -> c.getWebhooks() == null ? List.of()
                : c.getWebhooks().stream().map(w -> w.getClientConfig()).toList());
    }

    private <T extends KubernetesObject, L extends KubernetesListObject> void publish(GenericKubernetesApi<T, L> api,
            String name, byte[] bundle, Function<T, List<AdmissionregistrationV1WebhookClientConfig>> clientConfigs) {
        KubernetesApiResponse<T> found = KubernetesCluster.call(() -> api.get(name));
        if (found.getHttpStatusCode() == 404) {
            if (missingLogged.add(name)) {
                log.warn("webhook configuration {} not found: the API server does not call the admission webhook", name);
            }
            return;
        }
        if (!found.isSuccess()) {
            throw new IllegalStateException("could not read webhook configuration " + name + ": "
                    + found.getHttpStatusCode());
        }
        missingLogged.remove(name);
        List<AdmissionregistrationV1WebhookClientConfig> configs = clientConfigs.apply(found.getObject());
        StringBuilder patch = new StringBuilder();
        String encoded = Base64.getEncoder().encodeToString(bundle);
        for (int i = 0; i < configs.size(); i++) {
            byte[] current = configs.get(i) == null ? null : configs.get(i).getCaBundle();
            if (current == null || !Arrays.equals(current, bundle)) {
                patch.append(patch.isEmpty() ? "" : ",").append("{\"op\":\"add\",\"path\":\"/webhooks/").append(i)
                        .append("/clientConfig/caBundle\",\"value\":\"").append(encoded).append("\"}");
            }
        }
        if (patch.isEmpty()) {
            return;
        }
        KubernetesApiResponse<T> patched = KubernetesCluster.call(
                () -> api.patch(name, V1Patch.PATCH_FORMAT_JSON_PATCH, new V1Patch("[" + patch + "]")));
        if (!patched.isSuccess()) {
            throw new IllegalStateException("could not write the caBundle of webhook configuration " + name + ": "
                    + patched.getHttpStatusCode());
        }
        log.info("caBundle of webhook configuration {} written", name);
    }
}
