package dev.platform.helm;

import static dev.platform.helm.Charts.PLATFORM;
import static dev.platform.helm.Charts.all;
import static dev.platform.helm.Charts.one;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.marcnuri.helm.LintResult;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1Ingress;
import io.kubernetes.client.openapi.models.V1KeyToPath;
import io.kubernetes.client.openapi.models.V1NetworkPolicy;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1SecretVolumeSource;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServicePort;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import java.nio.file.Files;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The scheduler chart, linted and rendered by real Helm for its defaults and four other value sets. */
class PlatformChartTest {

    static Stream<Arguments> valueSets() {
        return Stream.of(
                Arguments.of("defaults", Map.of()),
                Arguments.of("ingress with TLS, JSON logs, tokens from values", Map.of(
                        "ingress", Map.of("enabled", true, "className", "nginx",
                                "tls", List.of(Map.of("secretName", "platform-tls", "hosts", List.of("platform.example.com")))),
                        "logging", Map.of("format", "json"),
                        "auth", Map.of("bootstrapAdminToken", "admin-secret", "agentTokens", Map.of("prod-1", "t1", "prod-2", "t2")))),
                Arguments.of("existing secrets, retention, three replicas", Map.of(
                        "replicaCount", 3,
                        "database", Map.of("existingSecret", "pg-credentials"),
                        "auth", Map.of("existingBootstrapSecret", "bootstrap", "existingAgentTokensSecret", "agent-tokens"),
                        "retention", Map.of("preemptions", "90d", "hotswaps", "90d", "workloadEvents", "30d",
                                "finishedWorkloads", "720h"))),
                Arguments.of("everything optional off", Map.of(
                        "networkPolicy", Map.of("enabled", false), "podDisruptionBudget", Map.of("enabled", false),
                        "dashboards", Map.of("enabled", false), "serviceAccount", Map.of("create", false, "name", "sched"),
                        "metrics", Map.of("podAnnotations", false), "spreadReplicas", false)),
                Arguments.of("placement, resources, settings", Map.of(
                        "nodeSelector", Map.of("pool", "system"),
                        "tolerations", List.of(Map.of("key", "dedicated", "operator", "Equal", "value", "system",
                                "effect", "NoSchedule")),
                        "resources", Map.of("requests", Map.of("cpu", "2", "memory", "4Gi"), "limits", Map.of("memory", "4Gi")),
                        "extraEnv", List.of(Map.of("name", "TZ", "value", "UTC")),
                        "config", Map.of("platform", Map.of("scheduler", Map.of("fair-sharing", Map.of("enabled", true)))),
                        "networkPolicy", Map.of("databaseTo", List.of(Map.of("ipBlock", Map.of("cidr", "10.20.0.0/16")))))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valueSets")
    void lintsAndRendersObjectsOfKnownKindsWithHardenedPods(String name, Map<String, Object> values) {
        List<KubernetesObject> objects = Charts.lintedAndRendered(PLATFORM, values);

        V1Deployment deployment = one(objects, V1Deployment.class);
        Pods.assertHardened(deployment);
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(values.getOrDefault("replicaCount", 2));
        assertThat(deployment.getSpec().getTemplate().getSpec().getAutomountServiceAccountToken()).isFalse();
        assertThat(Pods.env(deployment, "SPRING_DATASOURCE_URL")).get()
                .extracting(e -> e.getValueFrom().getSecretKeyRef().getName())
                .isEqualTo(values.containsKey("database") ? "pg-credentials" : "platform-database");
        assertThat(one(objects, V1Service.class).getSpec().getPorts()).extracting(V1ServicePort::getName,
                V1ServicePort::getPort).containsExactly(tuple("http", 8080), tuple("https", 8443));
        assertThat(all(objects, V1ConfigMap.class)).anySatisfy(c -> assertThat(c.getData()).containsKey("application.yaml"));
        objects.forEach(o -> assertThat(o.getMetadata().getLabels()).containsEntry("app.kubernetes.io/part-of", "platform"));
    }

    @Test
    void defaultsRunTwoReplicasOnExternalPostgresWithABudgetAPolicyAndTheDashboard() throws Exception {
        List<KubernetesObject> objects = Charts.template(PLATFORM, Map.of());

        V1Secret database = secret(objects, "platform-database");
        assertThat(database.getStringData()).containsOnlyKeys("url", "username", "password")
                .containsEntry("url", "jdbc:postgresql://postgresql:5432/platform");
        assertThat(one(objects, V1PodDisruptionBudget.class).getSpec().getMaxUnavailable().getIntValue()).isEqualTo(1);
        V1NetworkPolicy policy = one(objects, V1NetworkPolicy.class);
        assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
        assertThat(policy.getSpec().getEgress()).anySatisfy(rule -> assertThat(rule.getPorts())
                .anySatisfy(p -> assertThat(p.getPort().getIntValue()).isEqualTo(5432)));
        assertThat(one(objects, V1ServiceAccount.class).getAutomountServiceAccountToken()).isFalse();
        assertThat(all(objects, V1Ingress.class)).isEmpty();
        V1ConfigMap dashboard = all(objects, V1ConfigMap.class).stream()
                .filter(c -> c.getMetadata().getName().endsWith("-dashboard")).findFirst().orElseThrow();
        assertThat(dashboard.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
        JsonMapper json = JsonMapper.builder().build();
        assertThat(json.readTree(dashboard.getData().get("platform.json")))
                .isEqualTo(json.readTree(Files.readString(PLATFORM.resolve("dashboards/platform.json"))));
        V1Deployment deployment = one(objects, V1Deployment.class);
        assertThat(Pods.env(deployment, "PLATFORM_BOOTSTRAP_ADMIN_TOKEN")).isEmpty();
        assertThat(Pods.env(deployment, "SPRING_CONFIG_IMPORT")).get().extracting(V1EnvVar::getValue)
                .isEqualTo("optional:file:/etc/platform/application.yaml");
    }

    @Test
    void tokensComeFromSecretsTheAgentTokensAsAConfigTreeOfClusterNames() {
        List<KubernetesObject> objects = Charts.template(PLATFORM, Map.of("auth", Map.of(
                "bootstrapAdminToken", "admin-secret", "agentTokens", Map.of("prod-1", "t1", "prod-2", "t2"))));

        V1Deployment deployment = one(objects, V1Deployment.class);
        V1EnvVar bootstrap = Pods.env(deployment, "PLATFORM_BOOTSTRAP_ADMIN_TOKEN").orElseThrow();
        assertThat(bootstrap.getValueFrom().getSecretKeyRef().getName()).isEqualTo("platform-bootstrap");
        V1Secret tokens = all(objects, V1Secret.class).stream()
                .filter(s -> s.getMetadata().getName().equals("platform-agent-tokens")).findFirst().orElseThrow();
        assertThat(tokens.getStringData()).containsExactlyInAnyOrderEntriesOf(Map.of("prod-1", "t1", "prod-2", "t2"));
        assertThat(Pods.container(deployment).getVolumeMounts()).anySatisfy(m -> {
            assertThat(m.getName()).isEqualTo("agent-tokens");
            assertThat(m.getMountPath()).isEqualTo("/etc/platform/secrets/platform/agents/tokens");
        });
        assertThat(Pods.env(deployment, "SPRING_CONFIG_IMPORT")).get().extracting(V1EnvVar::getValue).asString()
                .contains("optional:configtree:/etc/platform/secrets/");
    }

    @Test
    void retentionAndJsonLoggingReachTheApplicationSettings() {
        List<KubernetesObject> objects = Charts.template(PLATFORM, Map.of("logging", Map.of("format", "json"),
                "retention", Map.of("preemptions", "90d", "finishedWorkloads", "720h")));

        V1ConfigMap config = all(objects, V1ConfigMap.class).stream()
                .filter(c -> c.getData().containsKey("application.yaml")).findFirst().orElseThrow();
        Map<String, Object> settings = new org.yaml.snakeyaml.Yaml().load(config.getData().get("application.yaml"));
        assertThat(settings).extractingByKey("platform").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .extractingByKey("retention").isEqualTo(Map.of("preemptions", "90d", "finished-workloads", "720h"));
        assertThat(settings).extractingByKey("logging").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .extractingByKey("structured").isEqualTo(Map.of("format", Map.of("console", "ecs")));
    }

    @Test
    void httpsServesACertificateTheChartMakesAndItsAuthorityVerifies() throws Exception {
        List<KubernetesObject> objects = Charts.template(PLATFORM, Map.of("tls", Map.of(
                "subjectAlternativeNames", List.of("platform.example.com", "10.0.0.5"))));

        V1Secret tls = secret(objects, "platform-tls");
        assertThat(tls.getType()).isEqualTo("kubernetes.io/tls");
        X509Certificate authority = certificate(tls.getData().get("ca.crt"));
        X509Certificate serving = certificate(tls.getData().get("tls.crt"));
        serving.verify(authority.getPublicKey());
        assertThat(authority.getBasicConstraints()).isNotNegative();
        assertThat(serving.getSubjectAlternativeNames().stream().map(name -> (Object) name.get(1))).contains("platform",
                "platform.queueing.svc", "platform.queueing.svc.cluster.local", "localhost", "127.0.0.1",
                "platform.example.com", "10.0.0.5");
        assertThat(new String(tls.getData().get("tls.key"), StandardCharsets.US_ASCII)).contains("PRIVATE KEY-----");

        V1Deployment deployment = one(objects, V1Deployment.class);
        assertThat(Pods.container(deployment).getPorts()).extracting(V1ContainerPort::getName,
                V1ContainerPort::getContainerPort).contains(tuple("https", 8443));
        assertThat(Pods.container(deployment).getVolumeMounts()).anySatisfy(m -> {
            assertThat(m.getName()).isEqualTo("tls");
            assertThat(m.getMountPath()).isEqualTo("/etc/platform/tls");
        });
        V1SecretVolumeSource volume = tlsVolume(deployment);
        assertThat(volume.getSecretName()).isEqualTo("platform-tls");
        assertThat(volume.getItems()).extracting(V1KeyToPath::getKey).as("the authority's key is not mounted")
                .containsExactly("tls.crt", "tls.key", "ca.crt");
        assertThat(tlsSettings(objects)).isEqualTo(Map.of("port", 8443, "certificate", "/etc/platform/tls/tls.crt",
                "private-key", "/etc/platform/tls/tls.key", "certificate-authority", "/etc/platform/tls/ca.crt"));
        assertThat(one(objects, V1NetworkPolicy.class).getSpec().getIngress()).anySatisfy(rule ->
                assertThat(rule.getPorts()).anySatisfy(p -> assertThat(p.getPort().getStrValue()).isEqualTo("https")));
    }

    @Test
    void aSecretOfYourOwnIsServedInsteadWithItsIssuerOnlyWhenNamed() {
        List<KubernetesObject> objects = Charts.template(PLATFORM, Map.of("tls", Map.of(
                "existingSecret", "platform-cert", "existingSecretCaKey", "")));

        assertThat(all(objects, V1Secret.class)).noneMatch(s -> "kubernetes.io/tls".equals(s.getType()));
        V1SecretVolumeSource volume = tlsVolume(one(objects, V1Deployment.class));
        assertThat(volume.getSecretName()).isEqualTo("platform-cert");
        assertThat(volume.getItems()).extracting(V1KeyToPath::getKey).containsExactly("tls.crt", "tls.key");
        assertThat(tlsSettings(objects)).doesNotContainKey("certificate-authority")
                .containsEntry("certificate", "/etc/platform/tls/tls.crt");

        V1SecretVolumeSource withIssuer = tlsVolume(one(Charts.template(PLATFORM, Map.of("tls", Map.of(
                "existingSecret", "platform-cert"))), V1Deployment.class));
        assertThat(withIssuer.getItems()).extracting(V1KeyToPath::getKey, V1KeyToPath::getPath)
                .contains(tuple("ca.crt", "ca.crt"));
    }

    @Test
    void withoutHttpsNoPortNoCertificateAndTheSchedulerToldSo() {
        List<KubernetesObject> objects = Charts.template(PLATFORM, Map.of("tls", Map.of("enabled", false)));

        assertThat(one(objects, V1Service.class).getSpec().getPorts()).extracting(V1ServicePort::getName)
                .containsExactly("http");
        assertThat(Pods.container(one(objects, V1Deployment.class)).getPorts()).extracting(V1ContainerPort::getName)
                .containsExactly("http");
        assertThat(all(objects, V1Secret.class)).noneMatch(s -> "kubernetes.io/tls".equals(s.getType()));
        assertThat(tlsSettings(objects)).isEqualTo(Map.of("enabled", false));
    }

    private static V1Secret secret(List<KubernetesObject> objects, String name) {
        return all(objects, V1Secret.class).stream().filter(s -> s.getMetadata().getName().equals(name)).findFirst()
                .orElseThrow();
    }

    private static V1SecretVolumeSource tlsVolume(V1Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getVolumes().stream()
                .filter(v -> v.getName().equals("tls")).findFirst().orElseThrow().getSecret();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> tlsSettings(List<KubernetesObject> objects) {
        V1ConfigMap config = all(objects, V1ConfigMap.class).stream()
                .filter(c -> c.getData().containsKey("application.yaml")).findFirst().orElseThrow();
        Map<String, Object> settings = new org.yaml.snakeyaml.Yaml().load(config.getData().get("application.yaml"));
        return (Map<String, Object>) ((Map<String, Object>) settings.get("platform")).get("tls");
    }

    private static X509Certificate certificate(byte[] pem) throws Exception {
        return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(pem));
    }

    @Test
    void theSchemaRejectsBadValues() {
        assertThatThrownBy(() -> Charts.render(PLATFORM, Map.of("replicaCount", "two")))
                .hasMessageContaining("replicaCount");
        assertThatThrownBy(() -> Charts.render(PLATFORM, Map.of("logging", Map.of("format", "xml"))))
                .hasMessageContaining("format");
        assertThatThrownBy(() -> Charts.render(PLATFORM, Map.of("database", Map.of("url", "postgres://db/platform"))))
                .hasMessageContaining("url");
        assertThatThrownBy(() -> Charts.render(PLATFORM, Map.of("replicas", 2)))
                .hasMessageContaining("replicas");
        LintResult lint = Charts.lint(PLATFORM, Map.of("retention", Map.of("hotswaps", "three months")));
        assertThat(lint.isFailed()).isTrue();
        assertThat(String.join("\n", lint.getMessages())).contains("hotswaps");
    }
}
