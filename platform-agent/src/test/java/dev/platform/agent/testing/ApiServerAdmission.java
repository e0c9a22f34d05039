package dev.platform.agent.testing;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The API server's side of an admission webhook: an AdmissionReview (admission.k8s.io/v1) built as
 * kube-apiserver builds it, POSTed over HTTPS to a client that trusts only the {@code caBundle} the webhook
 * configuration carries, and the answer read back: allowed, the JSONPatch, the status of a refusal.
 */
public final class ApiServerAdmission {

    private final JsonMapper json = JsonMapper.builder().build();
    private final URI webhook;
    private final HttpClient http;

    /** @param webhook {@code https://localhost:<port>}, the Service's address as a webhook configuration gives it */
    public ApiServerAdmission(URI webhook, String caBundle) {
        this.webhook = webhook;
        this.http = HttpClient.newBuilder().sslContext(trusting(caBundle)).connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** An SSL context that trusts the PEM certificates of {@code caBundle} and nothing else. */
    public static SSLContext trusting(String caBundle) {
        try {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int n = 0;
            for (var certificate : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(caBundle.getBytes(StandardCharsets.US_ASCII)))) {
                trusted.setCertificateEntry("ca-" + n++, (X509Certificate) certificate);
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What a webhook answered. */
    public record Answer(JsonNode response) {
        public boolean allowed() {
            return response.path("allowed").asBoolean();
        }

        /** The JSONPatch, decoded; an empty array when there is none. */
        public JsonNode patch() {
            String patch = response.path("patch").asString(null);
            JsonMapper json = JsonMapper.builder().build();
            return patch == null ? json.createArrayNode() : json.readTree(Base64.getDecoder().decode(patch));
        }

        public JsonNode status() {
            return response.path("status");
        }
    }

    /** A review of {@code object} at {@code path}; {@code oldObject} null on CREATE. */
    public Answer review(String path, String operation, JsonNode object, JsonNode oldObject, boolean dryRun) {
        ObjectNode review = request(operation, object, oldObject, dryRun);
        try {
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(webhook.resolve(path))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(review)))
                    .build(), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(path + " answered " + response.statusCode() + ": "
                        + new String(response.body(), StandardCharsets.UTF_8));
            }
            JsonNode answer = json.readTree(response.body());
            if (!answer.at("/response/uid").asString().equals(review.at("/request/uid").asString())) {
                throw new IllegalStateException("the answer's uid is not the request's: " + answer);
            }
            return new Answer(answer.path("response"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The request as kube-apiserver sends it: kind, resource, names, user, options, the objects. */
    private ObjectNode request(String operation, JsonNode object, JsonNode oldObject, boolean dryRun) {
        JsonNode subject = object != null ? object : oldObject;
        String[] apiVersion = subject.path("apiVersion").asString().split("/");
        String group = apiVersion.length == 2 ? apiVersion[0] : "";
        String version = apiVersion[apiVersion.length - 1];
        String kind = subject.path("kind").asString();
        String resource = kind.toLowerCase() + "s";
        ObjectNode review = json.createObjectNode();
        review.put("apiVersion", "admission.k8s.io/v1");
        review.put("kind", "AdmissionReview");
        ObjectNode request = review.putObject("request");
        request.put("uid", UUID.randomUUID().toString());
        ObjectNode kindNode = request.putObject("kind");
        kindNode.put("group", group).put("version", version).put("kind", kind);
        ObjectNode resourceNode = request.putObject("resource");
        resourceNode.put("group", group).put("version", version).put("resource", resource);
        request.set("requestKind", kindNode.deepCopy());
        request.set("requestResource", resourceNode.deepCopy());
        request.put("name", subject.at("/metadata/name").asString());
        request.put("namespace", subject.at("/metadata/namespace").asString("default"));
        request.put("operation", operation);
        ObjectNode user = request.putObject("userInfo");
        user.put("username", "kubernetes-admin");
        user.putArray("groups").add("system:masters").add("system:authenticated");
        request.set("object", object);
        request.set("oldObject", oldObject);
        request.put("dryRun", dryRun);
        ObjectNode options = request.putObject("options");
        options.put("apiVersion", "meta.k8s.io/v1");
        options.put("kind", "CREATE".equals(operation) ? "CreateOptions" : "UpdateOptions");
        if ("CREATE".equals(operation)) {
            options.put("fieldManager", "kubectl-client-side-apply");
        }
        return review;
    }

    /** RFC 6902 add, replace and remove on object members: what the webhook's patches hold. */
    public static ObjectNode apply(JsonNode object, JsonNode patch) {
        ObjectNode patched = (ObjectNode) object.deepCopy();
        for (JsonNode operation : (ArrayNode) patch) {
            String[] tokens = operation.path("path").asString().substring(1).split("/");
            ObjectNode parent = patched;
            for (int i = 0; i < tokens.length - 1; i++) {
                parent = (ObjectNode) parent.get(unescape(tokens[i]));
            }
            String member = unescape(tokens[tokens.length - 1]);
            switch (operation.path("op").asString()) {
                case "add", "replace" -> parent.set(member, operation.get("value"));
                case "remove" -> parent.remove(member);
                default -> throw new IllegalArgumentException("unsupported JSONPatch operation " + operation);
            }
        }
        return patched;
    }

    private static String unescape(String token) {
        return token.replace("~1", "/").replace("~0", "~");
    }
}
