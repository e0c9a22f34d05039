package dev.platform.helm;

import static dev.platform.helm.Charts.AGENT;
import static dev.platform.helm.Charts.NAMESPACE;
import static dev.platform.helm.Charts.all;
import static dev.platform.helm.Charts.one;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.agent.cluster.ApiPermissions;
import dev.platform.agent.cluster.ApiPermissions.Rule;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1Secret;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The agent chart, linted and rendered by real Helm; its RBAC is exactly the agent's {@link ApiPermissions}. */
class AgentChartTest {

    static Stream<Arguments> valueSets() {
        return Stream.of(
                Arguments.of("defaults", Map.of()),
                Arguments.of("one replica, its token, a Lease elsewhere", Map.of(
                        "replicaCount", 1, "clusterName", "prod-1", "schedulerUrl", "https://platform.example.com",
                        "token", "t1", "leaderElection", Map.of("namespace", "kube-system", "leaseDuration", "30s"))),
                Arguments.of("existing secret and service account, no RBAC", Map.of(
                        "existingSecret", "agent-token", "tokenKey", "value", "rbac", Map.of("create", false),
                        "serviceAccount", Map.of("create", false, "name", "platform-agent"))),
                Arguments.of("everything optional off, JSON logs", Map.of(
                        "networkPolicy", Map.of("enabled", false), "podDisruptionBudget", Map.of("enabled", false),
                        "metrics", Map.of("podAnnotations", false), "spreadReplicas", false,
                        "logging", Map.of("format", "json", "level", "DEBUG"))),
                Arguments.of("placement and settings", Map.of(
                        "nodeSelector", Map.of("pool", "system"),
                        "affinity", Map.of("nodeAffinity", Map.of()),
                        "config", Map.of("platform", Map.of("agent", Map.of("heartbeat", "5s"))),
                        "networkPolicy", Map.of("egressPorts", List.of(443, 8443)))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valueSets")
    void lintsAndRendersObjectsOfKnownKindsWithAHardenedPodAndExactRbac(String name, Map<String, Object> values) {
        List<KubernetesObject> objects = Charts.lintedAndRendered(AGENT, values);

        V1Deployment deployment = one(objects, V1Deployment.class);
        Pods.assertHardened(deployment);
        assertThat(Pods.env(deployment, "PLATFORM_AGENT_TOKEN")).get()
                .satisfies(e -> assertThat(e.getValueFrom().getSecretKeyRef().getName())
                        .isEqualTo(values.getOrDefault("existingSecret", "platform-agent-token")));
        assertThat(Pods.env(deployment, "PLATFORM_AGENT_AGENT_ID")).get()
                .satisfies(e -> assertThat(e.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name"));
        boolean rbac = !values.containsKey("rbac");
        if (rbac) {
            assertThat(rules(named(objects, V1ClusterRole.class, "platform-agent").getRules()))
                    .isEqualTo(rules(java.util.stream.Stream.concat(ApiPermissions.CLUSTER.stream(),
                            ApiPermissions.EVENTS.stream()).toList()));
            assertThat(rules(named(objects, V1Role.class, "platform-agent-leader-election").getRules()))
                    .isEqualTo(rules(ApiPermissions.LEADER_ELECTION));
            String serviceAccount = deployment.getSpec().getTemplate().getSpec().getServiceAccountName();
            assertThat(all(objects, V1ClusterRoleBinding.class)).isNotEmpty().allSatisfy(b -> assertThat(b.getSubjects())
                    .singleElement().satisfies(s -> assertThat(s.getName()).isEqualTo(serviceAccount)));
            assertThat(all(objects, V1RoleBinding.class)).isNotEmpty().allSatisfy(b -> assertThat(b.getSubjects())
                    .singleElement().satisfies(s -> assertThat(s.getName()).isEqualTo(serviceAccount)));
        } else {
            assertThat(all(objects, V1ClusterRole.class)).isEmpty();
            assertThat(all(objects, V1Role.class)).isEmpty();
        }
    }

    @Test
    void theLeaseDefaultsToTheReleaseNamespaceAndTheSettingsReachTheAgent() {
        List<KubernetesObject> defaults = Charts.template(AGENT, Map.of());
        List<KubernetesObject> elsewhere = Charts.template(AGENT, Map.of("clusterName", "prod-1",
                "leaderElection", Map.of("namespace", "kube-system")));

        String election = "platform-agent-leader-election";
        assertThat(named(defaults, V1Role.class, election).getMetadata().getNamespace()).isEqualTo(NAMESPACE);
        assertThat(named(defaults, V1RoleBinding.class, election).getMetadata().getNamespace()).isEqualTo(NAMESPACE);
        assertThat(named(elsewhere, V1Role.class, election).getMetadata().getNamespace()).isEqualTo("kube-system");
        assertThat(named(elsewhere, V1RoleBinding.class, election).getSubjects().get(0).getNamespace())
                .isEqualTo(NAMESPACE);
        Map<String, Object> settings = new org.yaml.snakeyaml.Yaml().load(
                one(elsewhere, V1ConfigMap.class).getData().get("application.yaml"));
        @SuppressWarnings("unchecked")
        Map<String, Object> agent = new java.util.HashMap<>((Map<String, Object>) ((Map<String, Object>) settings.get("platform")).get("agent"));
        agent.remove("webhook");
        assertThat(Map.of("agent", agent)).isEqualTo(Map.of("agent", Map.of("mode", "kubernetes",
                "cluster-name", "prod-1", "scheduler-url", "http://platform:8080", "lease-namespace", "kube-system",
                "lease-name", "platform-agent", "lease-duration", "15s")));
        assertThat(one(defaults, V1Secret.class).getStringData()).containsOnlyKeys("token");
        assertThat(settings.get("server")).as("probes and scraping come over the pod network, not loopback")
                .isEqualTo(Map.of("address", "0.0.0.0"));
        assertThat(settings).extracting("management").extracting("endpoints").isEqualTo(
                Map.of("web", Map.of("exposure", Map.of("include", "health,prometheus"))));
    }

    @Test
    void theWebhookIsWiredAsKueuesWithItsServiceCertificatesAndRbac() {
        List<KubernetesObject> objects = Charts.lintedAndRendered(AGENT, Map.of());

        V1MutatingWebhookConfiguration mutating = one(objects, V1MutatingWebhookConfiguration.class);
        V1ValidatingWebhookConfiguration validating = one(objects, V1ValidatingWebhookConfiguration.class);
        V1Service service = one(objects, V1Service.class);
        assertThat(mutating.getWebhooks()).extracting(w -> w.getClientConfig().getService().getPath())
                .containsExactly("/mutate-jobset-x-k8s-io-v1alpha2-jobset", "/mutate-batch-v1-job");
        assertThat(validating.getWebhooks()).extracting(w -> w.getClientConfig().getService().getPath())
                .containsExactly("/validate-jobset-x-k8s-io-v1alpha2-jobset", "/validate-batch-v1-job");
        for (var webhooks : List.of(mutating.getWebhooks().stream().map(w -> w.getRules().get(0)).toList(),
                validating.getWebhooks().stream().map(w -> w.getRules().get(0)).toList())) {
            assertThat(webhooks).extracting(r -> r.getApiGroups().get(0) + "/" + r.getApiVersions().get(0) + " "
                    + r.getResources().get(0)).containsExactly("jobset.x-k8s.io/v1alpha2 jobsets", "batch/v1 jobs");
        }
        assertThat(mutating.getWebhooks()).allSatisfy(w -> {
            assertThat(w.getFailurePolicy()).isEqualTo("Fail");
            assertThat(w.getSideEffects()).isEqualTo("None");
            assertThat(w.getRules()).singleElement().satisfies(r -> assertThat(r.getOperations()).containsExactly("CREATE"));
            assertThat(w.getClientConfig().getService().getName()).isEqualTo(service.getMetadata().getName());
            assertThat(w.getClientConfig().getService().getNamespace()).isEqualTo(NAMESPACE);
            assertThat(w.getNamespaceSelector().getMatchExpressions()).singleElement().satisfies(e -> {
                assertThat(e.getKey()).isEqualTo("kubernetes.io/metadata.name");
                assertThat(e.getOperator()).isEqualTo("NotIn");
                assertThat(e.getValues()).containsExactly("kube-system", NAMESPACE);
            });
        });
        assertThat(validating.getWebhooks()).allSatisfy(w -> assertThat(w.getRules()).singleElement()
                .satisfies(r -> assertThat(r.getOperations()).containsExactly("CREATE", "UPDATE")));
        V1Deployment deployment = one(objects, V1Deployment.class);
        assertThat(service.getSpec().getPorts()).singleElement().satisfies(p -> {
            assertThat(p.getPort()).isEqualTo(443);
            assertThat(p.getTargetPort().getStrValue()).isEqualTo("webhook");
        });
        assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts())
                .anySatisfy(p -> {
                    assertThat(p.getName()).isEqualTo("webhook");
                    assertThat(p.getContainerPort()).isEqualTo(9443);
                });
        assertThat(service.getSpec().getSelector()).isEqualTo(deployment.getSpec().getSelector().getMatchLabels());

        V1ClusterRole webhookRole = named(objects, V1ClusterRole.class, "platform-agent-webhook");
        assertThat(rules(webhookRole.getRules(), true)).isEqualTo(rules(ApiPermissions.WEBHOOK_CONFIGURATIONS));
        assertThat(webhookRole.getRules()).extracting(r -> r.getResourceNames().get(0)).containsExactlyInAnyOrder(
                mutating.getMetadata().getName(), validating.getMetadata().getName());
        V1Role certificates = named(objects, V1Role.class, "platform-agent-webhook-certificates");
        assertThat(certificates.getMetadata().getNamespace()).isEqualTo(NAMESPACE);
        assertThat(rules(certificates.getRules())).isEqualTo(rules(ApiPermissions.WEBHOOK_CERTIFICATES));

        Map<String, Object> settings = new org.yaml.snakeyaml.Yaml().load(
                one(objects, V1ConfigMap.class).getData().get("application.yaml"));
        assertThat(settings).extracting("platform").extracting("agent").extracting("webhook").isEqualTo(Map.of(
                "enabled", true, "port", 9443, "namespace", NAMESPACE, "service-name", service.getMetadata().getName(),
                "secret-name", "platform-agent-webhook-server-cert",
                "mutating-configuration", mutating.getMetadata().getName(),
                "validating-configuration", validating.getMetadata().getName(),
                "certificates", "internal", "manage-jobs-without-queue-name", false));
    }

    @Test
    void theFailurePolicyIsConfigurableAndTheWebhookCanBeLeftOut() {
        List<KubernetesObject> ignore = Charts.lintedAndRendered(AGENT, Map.of("webhook",
                Map.of("failurePolicy", "Ignore", "manageJobsWithoutQueueName", true)));
        List<KubernetesObject> none = Charts.lintedAndRendered(AGENT, Map.of("webhook", Map.of("enabled", false)));

        assertThat(one(ignore, V1MutatingWebhookConfiguration.class).getWebhooks())
                .allSatisfy(w -> assertThat(w.getFailurePolicy()).isEqualTo("Ignore"));
        assertThat(rules(named(ignore, V1ClusterRole.class, "platform-agent-webhook").getRules(), true)).isEqualTo(
                rules(java.util.stream.Stream.concat(ApiPermissions.WEBHOOK_CONFIGURATIONS.stream(),
                        ApiPermissions.WEBHOOK_NAMESPACES.stream()).toList()));
        assertThat(all(none, V1MutatingWebhookConfiguration.class)).isEmpty();
        assertThat(all(none, V1ValidatingWebhookConfiguration.class)).isEmpty();
        assertThat(all(none, V1Service.class)).isEmpty();
        assertThat(all(none, V1ClusterRole.class)).singleElement()
                .satisfies(r -> assertThat(r.getMetadata().getName()).isEqualTo("platform-agent"));
        assertThatThrownBy(() -> Charts.render(AGENT, Map.of("webhook", Map.of("failurePolicy", "Sometimes"))))
                .hasMessageContaining("failurePolicy");
    }

    @Test
    @SuppressWarnings("unchecked")
    void withCertManagerItsCertificateIsMountedAndItsCaInjected() {
        String rendered = Charts.render(AGENT, Map.of("webhook", Map.of("certManager", Map.of("enabled", true))));
        List<Map<String, Object>> documents = new java.util.ArrayList<>();
        new org.yaml.snakeyaml.Yaml().loadAll(rendered).forEach(d -> documents.add((Map<String, Object>) d));

        Map<String, Object> certificate = documents.stream().filter(d -> "Certificate".equals(d.get("kind")))
                .findFirst().orElseThrow();
        assertThat(certificate).extracting("spec").extracting("secretName").isEqualTo("platform-agent-webhook-server-cert");
        assertThat(certificate).extracting("spec").extracting("dnsNames").asList()
                .contains("platform-agent-webhook." + NAMESPACE + ".svc");
        assertThat(documents).anySatisfy(d -> assertThat(d.get("kind")).isEqualTo("Issuer"));
        assertThat(documents.stream().filter(d -> String.valueOf(d.get("kind")).endsWith("WebhookConfiguration")))
                .hasSize(2).allSatisfy(d -> assertThat(d).extracting("metadata").extracting("annotations")
                        .isEqualTo(Map.of("cert-manager.io/inject-ca-from", NAMESPACE + "/platform-agent-webhook")));
        assertThat(rendered).contains("mountPath: /tmp/k8s-webhook-server/serving-certs")
                .contains("secretName: platform-agent-webhook-server-cert").contains("certificates: directory")
                .doesNotContain("platform-agent-webhook-certificates");
    }

    @Test
    void theSchemaRejectsBadValues() {
        assertThatThrownBy(() -> Charts.render(AGENT, Map.of("leaderElection", Map.of("leaseDuration", "1500ms"))))
                .hasMessageContaining("leaseDuration");
        assertThatThrownBy(() -> Charts.render(AGENT, Map.of("clusterName", "Prod_1")))
                .hasMessageContaining("clusterName");
        assertThatThrownBy(() -> Charts.render(AGENT, Map.of("schedulerUrl", "platform:8080")))
                .hasMessageContaining("schedulerUrl");
        assertThatThrownBy(() -> Charts.render(AGENT, Map.of("networkPolicy", Map.of("egressPorts", List.of(70000)))))
                .hasMessageContaining("egressPorts");
    }

    /** "group resource" to verbs: a rule may list several groups and resources, ours list one each. */
    private static Map<String, Set<String>> rules(List<V1PolicyRule> rules) {
        return rules(rules, false);
    }

    private static Map<String, Set<String>> rules(List<V1PolicyRule> rules, boolean namedResources) {
        Map<String, Set<String>> verbs = new java.util.TreeMap<>();
        for (V1PolicyRule rule : rules) {
            if (!namedResources) {
                assertThat(rule.getResourceNames()).isNullOrEmpty();
            }
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    verbs.computeIfAbsent(group + " " + resource, k -> new HashSet<>()).addAll(rule.getVerbs());
                }
            }
        }
        return verbs;
    }

    private static <T extends KubernetesObject> T named(List<KubernetesObject> objects, Class<T> type, String name) {
        return all(objects, type).stream().filter(o -> o.getMetadata().getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name));
    }

    private static Map<String, Set<String>> rules(Iterable<Rule> rules) {
        Map<String, Set<String>> verbs = new java.util.TreeMap<>();
        rules.forEach(rule -> verbs.computeIfAbsent(rule.apiGroup() + " " + rule.resource(), k -> new HashSet<>())
                .addAll(rule.verbs()));
        return verbs;
    }
}
