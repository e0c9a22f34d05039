package dev.platform.scheduler.kubeconfig;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.identity.ApiTokens;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.tls.HttpsEndpoint;
import dev.platform.scheduler.web.KubernetesYaml;
import org.springframework.stereotype.Service;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A kubeconfig for kubectl and the Kubernetes clients: a new API token of the caller (as {@code POST /api/v1/tokens}
 * issues it, audited alike), the scheduler's Kubernetes API ({@code /k8s} on the HTTPS connector), the
 * certificate authority to trust, and the caller's first team namespace as the context's namespace.
 */
@Service
public class Kubeconfigs {

    /** The name a downloaded kubeconfig is saved under. */
    public static final String FILE_NAME = "platform.kubeconfig";
    /** What the token is described as in the token lists when the request names nothing. */
    static final String DEFAULT_DESCRIPTION = "kubeconfig";
    /** The path of the Kubernetes API on the scheduler. */
    static final String API_PATH = "/k8s";
    static final String CLUSTER = "platform";

    private final ApiTokens tokens;
    private final HttpsEndpoint https;
    private final KubeconfigProperties settings;

    Kubeconfigs(ApiTokens tokens, HttpsEndpoint https, KubeconfigProperties settings) {
        this.tokens = tokens;
        this.https = https;
        this.settings = settings;
    }

    /**
     * @param description  the token's description; blank: {@value #DEFAULT_DESCRIPTION}
     * @param lifetime     null for the token's default lifetime
     * @param requestHost  the host the caller reached the scheduler by, named in the server URL unless
     *                     {@code platform.kubeconfig.server} is set
     * @return the kubeconfig, YAML
     */
    public String issue(Caller caller, String description, Duration lifetime, String requestHost) {
        String server = server(requestHost);
        String named = description == null || description.isBlank() ? DEFAULT_DESCRIPTION : description;
        ApiTokens.Issued issued = tokens.issue(null, named, lifetime, caller);
        return KubernetesYaml.yaml(kubeconfig(server, caller, issued.secret()));
    }

    /** The PEM of the authority a kubeconfig trusts, when the platform knows it. */
    public Optional<String> authorityPem() {
        return https.authorityPem();
    }

    private Map<String, Object> kubeconfig(String server, Caller caller, String token) {
        Map<String, Object> cluster = new LinkedHashMap<>();
        cluster.put("server", server);
        https.authorityPem().ifPresent(pem -> cluster.put("certificate-authority-data",
                Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII))));
        String user = caller.name() + "@" + CLUSTER;
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("cluster", CLUSTER);
        context.put("user", user);
        context.put("namespace", namespace(caller));
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("apiVersion", "v1");
        config.put("kind", "Config");
        config.put("clusters", List.of(Map.of("name", CLUSTER, "cluster", cluster)));
        config.put("users", List.of(Map.of("name", user, "user", Map.of("token", token))));
        config.put("contexts", List.of(Map.of("name", CLUSTER, "context", context)));
        config.put("current-context", CLUSTER);
        return config;
    }

    /** The first namespace of the caller's first team; {@code default} for a caller in no team. */
    static String namespace(Caller caller) {
        return caller.teams().stream().flatMap(team -> team.namespaces().stream()).findFirst().orElse("default");
    }

    private String server(String requestHost) {
        if (settings.server() != null) {
            return settings.server().toString();
        }
        int port = https.port().orElseThrow(() -> Refusal.conflict("the scheduler serves no HTTPS"
                + " (platform.tls.enabled=false or platform.tls.port=-1), and kubectl sends its token over TLS only:"
                + " turn the HTTPS connector on, or set platform.kubeconfig.server to the https:// address of the TLS"
                + " proxy in front of the scheduler", List.of()));
        return server(requestHost, port);
    }

    /** The Kubernetes API on {@code port} of the host a request named; an IPv6 address in brackets, as URLs write it. */
    static String server(String requestHost, int port) {
        String host = requestHost.contains(":") && !requestHost.startsWith("[") ? "[" + requestHost + "]" : requestHost;
        return "https://" + host + ":" + port + API_PATH;
    }
}
