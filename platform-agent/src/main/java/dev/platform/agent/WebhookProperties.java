package dev.platform.agent;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the admission webhook ({@code platform.agent.webhook.*}), Kueue's job webhook served by the agent.
 *
 * @param enabled                      serve the admission webhook; the chart's webhook configurations point the
 *                                     API server at it
 * @param port                         the admission webhook's HTTPS port (Kueue's is 9443)
 * @param manageJobsWithoutQueueName   Kueue's setting: suspend and submit, to the namespace's
 *                                     {@code defaultQueueName}, jobs that name no queue in the namespaces
 *                                     {@code managedJobsNamespaceSelector} selects
 * @param managedJobsNamespaceSelector Kueue's setting, a label selector on namespaces; unset selects every
 *                                     namespace but kube-system and the agent's own
 * @param defaultQueueName             the LocalQueue such jobs go to (Kueue's LocalQueue defaulting names it default)
 * @param serviceName                  the Service in front of the webhook: the serving certificate names it
 * @param namespace                    the agent's namespace (the Service's); unset means the pod's, from its service
 *                                     account
 * @param certificates                 internal: the agent makes, keeps (in {@code secretName}) and renews its CA and
 *                                     serving certificate and writes the CA into the webhook configurations;
 *                                     directory: it serves tls.crt and tls.key of {@code certDir} (cert-manager's
 *                                     Secret, mounted by the chart), read again at each check
 * @param certDir                      where the directory certificates are
 * @param secretName                   the Secret, in the agent's namespace, that keeps the internal certificates
 * @param mutatingConfiguration        the MutatingWebhookConfiguration whose caBundle the agent writes
 * @param validatingConfiguration      the ValidatingWebhookConfiguration whose caBundle the agent writes
 * @param certificateCheck             how often the certificates are checked: renewed when due (the serving
 *                                     certificate 90 days before it ends, the CA a year before), re-read, the
 *                                     caBundle written again where it changed
 */
@ConfigurationProperties("platform.agent.webhook")
public record WebhookProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("9443") int port,
        @DefaultValue("false") boolean manageJobsWithoutQueueName,
        NamespaceSelector managedJobsNamespaceSelector,
        @DefaultValue("default") String defaultQueueName,
        @DefaultValue("platform-agent-webhook") String serviceName,
        String namespace,
        @DefaultValue("internal") Certificates certificates,
        @DefaultValue("/tmp/k8s-webhook-server/serving-certs") String certDir,
        @DefaultValue("platform-agent-webhook-server-cert") String secretName,
        @DefaultValue("platform-agent-mutating-webhook-configuration") String mutatingConfiguration,
        @DefaultValue("platform-agent-validating-webhook-configuration") String validatingConfiguration,
        @DefaultValue("1h") Duration certificateCheck) {

    public enum Certificates {
        INTERNAL,
        DIRECTORY
    }

    /**
     * A Kubernetes LabelSelector, as Kueue's configuration writes it.
     *
     * @param matchLabels      labels a managed namespace has, with these values
     * @param matchExpressions requirements on a managed namespace's labels: key, operator (In, NotIn, Exists,
     *                         DoesNotExist) and values
     */
    public record NamespaceSelector(Map<String, String> matchLabels, List<Expression> matchExpressions) {

        /** {@code operator}: In, NotIn, Exists, DoesNotExist. */
        public record Expression(String key, String operator, List<String> values) {
        }
    }
}
