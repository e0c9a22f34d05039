package dev.platform.agent;

import dev.platform.agent.webhook.AdmissionWebhook;
import dev.platform.agent.webhook.CaBundlePublisher;
import dev.platform.agent.webhook.CertificateRotation;
import dev.platform.agent.webhook.CertificateStore;
import dev.platform.agent.webhook.DirectoryCertificates;
import dev.platform.agent.webhook.SecretCertificateStore;
import dev.platform.agent.webhook.ManagedJobs;
import dev.platform.agent.webhook.ServingKeys;
import dev.platform.agent.webhook.WebhookServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.util.labels.LabelSelector;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The admission webhook beside the agent, in both modes (simulated: on this host's names, to try it out). */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(WebhookProperties.class)
@ConditionalOnProperty(name = "platform.agent.webhook.enabled", matchIfMissing = true)
class WebhookConfiguration {

    /** Where a pod finds its own namespace. */
    private static final Path POD_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");
    static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

    /** The internal certificate manager; kept in memory in simulated mode, where no API server reads a caBundle. */
    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "platform.agent.webhook.certificates", havingValue = "internal", matchIfMissing = true)
    CertificateRotation webhookCertificates(AgentProperties agent, WebhookProperties webhook, Clock clock)
            throws IOException {
        CertificateRotation rotation;
        if (agent.mode() == AgentProperties.Mode.SIMULATED) {
            rotation = new CertificateRotation(CertificateStore.inMemory(), caBundle -> { }, hosts(agent, webhook), clock);
        } else {
            ApiClient client = AgentConfiguration.apiClient(agent);
            rotation = new CertificateRotation(new SecretCertificateStore(client, namespace(agent, webhook),
                    webhook.secretName()), new CaBundlePublisher(client, webhook.mutatingConfiguration(),
                    webhook.validatingConfiguration()), hosts(agent, webhook), clock);
        }
        rotation.start(webhook.certificateCheck());
        return rotation;
    }

    @Bean
    @ConditionalOnProperty(name = "platform.agent.webhook.certificates", havingValue = "internal", matchIfMissing = true)
    ServingKeys internalServingKeys(CertificateRotation rotation) {
        return rotation.keys();
    }

    /** cert-manager's certificate, mounted by the chart. */
    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "platform.agent.webhook.certificates", havingValue = "directory")
    DirectoryCertificates directoryCertificates(WebhookProperties webhook) {
        DirectoryCertificates certificates = new DirectoryCertificates(Path.of(webhook.certDir()));
        certificates.start(webhook.certificateCheck());
        return certificates;
    }

    @Bean
    @ConditionalOnProperty(name = "platform.agent.webhook.certificates", havingValue = "directory")
    ServingKeys directoryServingKeys(DirectoryCertificates certificates) {
        return certificates.keys();
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    WebhookServer webhookServer(AgentProperties agent, WebhookProperties webhook, ServingKeys keys,
                                MeterRegistry registry) throws IOException {
        ManagedJobs managed = new ManagedJobs(webhook.manageJobsWithoutQueueName(),
                namespaceSelector(webhook, agent), webhook.defaultQueueName(), namespaceLabels(agent));
        return new WebhookServer(new InetSocketAddress(webhook.port()), new AdmissionWebhook(managed, Agent.json(), registry),
                keys);
    }

    /** The Service's names, as the API server calls it; this host's in simulated mode. */
    static List<String> hosts(AgentProperties agent, WebhookProperties webhook) {
        if (agent.mode() == AgentProperties.Mode.SIMULATED) {
            return List.of("localhost", "127.0.0.1");
        }
        String service = webhook.serviceName();
        String namespace = namespace(agent, webhook);
        return List.of(service, service + "." + namespace, service + "." + namespace + ".svc",
                service + "." + namespace + ".svc.cluster.local");
    }

    /** The agent's namespace: configured, else the pod's; simulated mode has none of its own. */
    static String namespace(AgentProperties agent, WebhookProperties webhook) {
        if (webhook.namespace() != null && !webhook.namespace().isBlank()) {
            return webhook.namespace();
        }
        if (agent.mode() == AgentProperties.Mode.KUBERNETES && Files.isReadable(POD_NAMESPACE)) {
            try {
                return Files.readString(POD_NAMESPACE, StandardCharsets.UTF_8).trim();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        if (agent.mode() == AgentProperties.Mode.KUBERNETES) {
            throw new IllegalStateException("platform.agent.webhook.namespace is not set and " + POD_NAMESPACE
                    + " does not exist: set it to the agent's namespace (the webhook Service's)");
        }
        return "default";
    }

    /** The configured selector, else Kueue's default with the agent's namespace in kueue-system's place. */
    static LabelSelector namespaceSelector(WebhookProperties webhook, AgentProperties agent) {
        WebhookProperties.NamespaceSelector configured = webhook.managedJobsNamespaceSelector();
        V1LabelSelector selector = new V1LabelSelector();
        if (configured == null) {
            selector.addMatchExpressionsItem(new V1LabelSelectorRequirement().key(NAMESPACE_NAME_LABEL).operator("NotIn")
                    .values(List.of("kube-system", namespace(agent, webhook))));
            return LabelSelector.parse(selector);
        }
        selector.matchLabels(configured.matchLabels() == null ? null : new HashMap<>(configured.matchLabels()));
        if (configured.matchExpressions() != null) {
            for (WebhookProperties.NamespaceSelector.Expression expression : configured.matchExpressions()) {
                selector.addMatchExpressionsItem(new V1LabelSelectorRequirement().key(expression.key())
                        .operator(expression.operator())
                        .values(expression.values() == null ? null : new ArrayList<>(expression.values())));
            }
        }
        try {
            return LabelSelector.parse(selector);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("platform.agent.webhook.managed-jobs-namespace-selector: " + e.getMessage(), e);
        }
    }

    /**
     * A namespace's labels as the API server holds them (an AdmissionReview does not carry them); in simulated
     * mode every namespace has only the label the API server sets on every namespace, its name.
     */
    private static Function<String, Map<String, String>> namespaceLabels(AgentProperties agent) throws IOException {
        if (agent.mode() == AgentProperties.Mode.SIMULATED) {
            return namespace -> Map.of(NAMESPACE_NAME_LABEL, namespace);
        }
        ApiClient client = AgentConfiguration.apiClient(agent);
        CoreV1Api core = new CoreV1Api(client);
        return namespace -> {
            try {
                V1Namespace found = core.readNamespace(namespace).execute();
                Map<String, String> labels = found.getMetadata() == null ? null : found.getMetadata().getLabels();
                return labels == null ? Map.of() : labels;
            } catch (ApiException e) {
                throw new IllegalStateException("namespace " + namespace + " could not be read (" + e.getCode() + ")", e);
            }
        };
    }
}
