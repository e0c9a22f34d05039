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
            assertThat(rules(one(objects, V1ClusterRole.class).getRules())).isEqualTo(rules(ApiPermissions.CLUSTER));
            assertThat(rules(one(objects, V1Role.class).getRules())).isEqualTo(rules(ApiPermissions.LEADER_ELECTION));
            String serviceAccount = deployment.getSpec().getTemplate().getSpec().getServiceAccountName();
            assertThat(one(objects, V1ClusterRoleBinding.class).getSubjects()).singleElement()
                    .satisfies(s -> assertThat(s.getName()).isEqualTo(serviceAccount));
            assertThat(one(objects, V1RoleBinding.class).getSubjects()).singleElement()
                    .satisfies(s -> assertThat(s.getName()).isEqualTo(serviceAccount));
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

        assertThat(one(defaults, V1Role.class).getMetadata().getNamespace()).isEqualTo(NAMESPACE);
        assertThat(one(defaults, V1RoleBinding.class).getMetadata().getNamespace()).isEqualTo(NAMESPACE);
        assertThat(one(elsewhere, V1Role.class).getMetadata().getNamespace()).isEqualTo("kube-system");
        assertThat(one(elsewhere, V1RoleBinding.class).getSubjects().get(0).getNamespace()).isEqualTo(NAMESPACE);
        Map<String, Object> settings = new org.yaml.snakeyaml.Yaml().load(
                one(elsewhere, V1ConfigMap.class).getData().get("application.yaml"));
        assertThat(settings.get("platform")).isEqualTo(Map.of("agent", Map.of("mode", "kubernetes",
                "cluster-name", "prod-1", "scheduler-url", "http://platform:8080", "lease-namespace", "kube-system",
                "lease-name", "platform-agent", "lease-duration", "15s")));
        assertThat(one(defaults, V1Secret.class).getStringData()).containsOnlyKeys("token");
        assertThat(settings.get("server")).as("probes and scraping come over the pod network, not loopback")
                .isEqualTo(Map.of("address", "0.0.0.0"));
        assertThat(settings).extracting("management").extracting("endpoints").isEqualTo(
                Map.of("web", Map.of("exposure", Map.of("include", "health,prometheus"))));
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
        Map<String, Set<String>> verbs = new java.util.TreeMap<>();
        for (V1PolicyRule rule : rules) {
            assertThat(rule.getResourceNames()).isNullOrEmpty();
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    verbs.computeIfAbsent(group + " " + resource, k -> new HashSet<>()).addAll(rule.getVerbs());
                }
            }
        }
        return verbs;
    }

    private static Map<String, Set<String>> rules(Iterable<Rule> rules) {
        Map<String, Set<String>> verbs = new java.util.TreeMap<>();
        rules.forEach(rule -> verbs.computeIfAbsent(rule.apiGroup() + " " + rule.resource(), k -> new HashSet<>())
                .addAll(rule.verbs()));
        return verbs;
    }
}
