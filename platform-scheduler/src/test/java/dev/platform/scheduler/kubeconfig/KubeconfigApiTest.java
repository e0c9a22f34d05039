package dev.platform.scheduler.kubeconfig;

import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.TlsClients;
import dev.platform.scheduler.tls.HttpsEndpoint;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.yaml.snakeyaml.Yaml;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A kubeconfig from {@code POST /api/v1/kubeconfig}: the HTTPS address of the Kubernetes API, the authority to trust
 * and a new token of the caller, which kubectl uses as it is, the server's certificate checked.
 */
class KubeconfigApiTest extends PlatformApplicationTest {

    @Value("${" + HttpsEndpoint.LOCAL_PORT_PROPERTY + "}")
    int httpsPort;

    @Autowired
    HttpsEndpoint https;

    @TempDir
    Path dir;

    private PlatformClient engineer;

    @BeforeEach
    void anEngineerOfATeamWithTwoNamespaces() {
        assertThat(api.postJson("/api/v1/users", "{\"name\": \"kube-eng\", \"password\": \"a-password-long-enough\"}")
                .status()).isEqualTo(201);
        assertThat(api.postYaml("/api/v1/manifests", """
                apiVersion: v1
                kind: Namespace
                metadata: {name: zeta-train}
                ---
                apiVersion: v1
                kind: Namespace
                metadata: {name: alpha-train}
                ---
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: kube}
                spec:
                  namespaces: [zeta-train, alpha-train]
                  members: [{user: kube-eng, role: Engineer}]
                """).status()).isEqualTo(200);
        engineer = api.as(api.postJson("/api/v1/tokens", "{\"user\": \"kube-eng\"}").json().get("token").asString());
    }

    @Test
    void aKubeconfigNamesTheHttpsApiTheAuthorityANewTokenAndTheFirstTeamNamespace() throws Exception {
        PlatformClient.Response answer = engineer.post("/api/v1/kubeconfig", "application/json",
                "{\"description\": \"laptop\", \"expiresInSeconds\": 3600}");

        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.contentType()).startsWith("application/yaml");
        assertThat(answer.header("Content-Disposition")).isEqualTo("attachment; filename=\"platform.kubeconfig\"");
        Map<String, Object> kubeconfig = new Yaml().load(answer.body());
        assertThat(kubeconfig).containsEntry("apiVersion", "v1").containsEntry("kind", "Config")
                .containsEntry("current-context", "platform");
        assertThat(path(kubeconfig, "clusters", "cluster")).containsEntry("server",
                "https://127.0.0.1:" + httpsPort + "/k8s");
        assertThat(new String(Base64.getDecoder().decode((String) path(kubeconfig, "clusters", "cluster")
                .get("certificate-authority-data")), StandardCharsets.US_ASCII)).isEqualTo(https.authorityPem().orElseThrow());
        assertThat(path(kubeconfig, "contexts", "context")).containsEntry("cluster", "platform")
                .containsEntry("namespace", "alpha-train").containsEntry("user", "kube-eng@platform");
        String token = (String) path(kubeconfig, "users", "user").get("token");

        HttpResponse<String> me = HttpClient.newBuilder().sslContext(TlsClients.trusting(https.authorityPem().orElseThrow()))
                .build().send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + httpsPort + "/api/v1/me"))
                        .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(me.body()).contains("\"kube-eng\"");
        assertThat(engineer.get("/api/v1/tokens").json().get("items").valueStream()
                .filter(t -> t.get("description").asString().equals("laptop")))
                .singleElement().satisfies(t -> assertThat(Instant.parse(t.get("expiresAt").asString()))
                        .isCloseTo(Instant.now().plusSeconds(3600), within(60, java.time.temporal.ChronoUnit.SECONDS)));
    }

    @Test
    void withoutABodyTheTokenIsDescribedAsAKubeconfigsAndACallerInNoTeamGetsTheDefaultNamespace() {
        PlatformClient.Response answer = api.post("/api/v1/kubeconfig", "application/json", "");

        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        Map<String, Object> kubeconfig = new Yaml().load(answer.body());
        assertThat(path(kubeconfig, "contexts", "context")).containsEntry("namespace", "default");
        assertThat(api.get("/api/v1/tokens").json().get("items").valueStream()
                .map(t -> t.get("description").asString())).contains("kubeconfig");
    }

    @Test
    void theAuthorityIsPublicAKubeconfigIsNot() {
        PlatformClient.Response authority = api.anonymous().get("/api/v1/kubeconfig/ca.crt", "*/*");

        assertThat(authority.status()).isEqualTo(200);
        assertThat(authority.contentType()).startsWith("application/x-pem-file");
        assertThat(authority.body()).isEqualTo(https.authorityPem().orElseThrow());
        assertThat(api.anonymous().post("/api/v1/kubeconfig", "application/json", "").status()).isEqualTo(401);
    }

    @ParameterizedTest(name = "kubectl {0}")
    @ValueSource(strings = {"1.27", "1.33"})
    void kubectlUsesTheKubeconfigAsItIs(String version) throws Exception {
        Path kubectl = TlsClients.kubectl(version);
        assumeTrue(Files.isExecutable(kubectl), kubectl + " is not installed: the check with kubectl " + version
                + " is skipped");
        Path file = Files.writeString(dir.resolve("platform.kubeconfig"),
                engineer.post("/api/v1/kubeconfig", "application/json", "").body());

        TlsClients.Run namespace = TlsClients.run(List.of(kubectl.toString(), "--kubeconfig=" + file, "config", "view",
                "--minify", "-o", "jsonpath={.contexts[0].context.namespace}"));
        TlsClients.Run versions = TlsClients.run(List.of(kubectl.toString(), "--kubeconfig=" + file, "version",
                "-o", "json"));
        // The platform's own API at the root of the same HTTPS port: the certificate checked, the token sent.
        TlsClients.Run me = TlsClients.run(List.of(kubectl.toString(), "--kubeconfig=" + file,
                "--server=https://127.0.0.1:" + httpsPort, "get", "--raw", "/api/v1/me"));

        assertThat(namespace.output()).isEqualTo("alpha-train");
        assertThat(versions.exit()).as(versions.output()).isZero();
        assertThat(versions.output()).contains("\"serverVersion\"");
        assertThat(me.exit()).as(me.output()).isZero();
        assertThat(me.output()).contains("\"kube-eng\"");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> path(Map<String, Object> kubeconfig, String list, String field) {
        return (Map<String, Object>) ((List<Map<String, Object>>) kubeconfig.get(list)).get(0).get(field);
    }
}
