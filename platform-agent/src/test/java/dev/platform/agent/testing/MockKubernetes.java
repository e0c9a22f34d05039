package dev.platform.agent.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.platform.agent.simulation.JsonMergePatch;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * fabric8's Kubernetes mock server in CRUD mode, behind a small front server that adds what the
 * mock lacks for client-java:
 * <ul>
 * <li>watches as HTTP streams: the mock serves watches over WebSocket (fabric8's way), client-java
 * reads a chunked HTTP response; the front opens the WebSocket and streams each event as a line;</li>
 * <li>the pods/eviction subresource: deletes the pod, or answers 429 as a PodDisruptionBudget would
 * for as many attempts as the test asks;</li>
 * <li>JSON merge patches as RFC 7386 has them: the mock merges arrays element by element (Jackson's
 * readerForUpdating) where the API server replaces them, so re-pinning a JobSet would append its
 * replicatedJobs to the old ones. The front applies the patch itself and PUTs the result;</li>
 * <li>untyped Leases: client-java's LeaseLock sends a Lease without apiVersion and kind, which the
 * API server takes from the URL and the mock refuses (422). The front adds them.</li>
 * </ul>
 * Everything else is forwarded to the mock as is.
 */
public final class MockKubernetes implements AutoCloseable {

    private static final Pattern COLLECTION = Pattern.compile("/apis/[^/]+/[^/]+/(namespaces/[^/]+/)?[^/]+");
    private static final Pattern EVICTION = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/eviction");
    private static final Pattern LEASE = Pattern.compile("/apis/coordination\\.k8s\\.io/v1/namespaces/[^/]+/leases(/[^/]+)?");

    private final KubernetesMockServer server;
    private final KubernetesClient fabric8;
    private final HttpServer front;
    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();
    private final Map<String, AtomicInteger> disruptionBudgetRefusals = new ConcurrentHashMap<>();
    private final List<String> evictionAttempts = new CopyOnWriteArrayList<>();
    private final List<ApiRequest> requests = new CopyOnWriteArrayList<>();

    public MockKubernetes() throws IOException {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        server.expectCustomResource(new CustomResourceDefinitionContext.Builder()
                .withGroup("jobset.x-k8s.io").withVersion("v1alpha2").withPlural("jobsets").withKind("JobSet")
                .withScope("Namespaced").build());
        server.expectCustomResource(new CustomResourceDefinitionContext.Builder()
                .withGroup("autoscaling.x-k8s.io").withVersion("v1").withPlural("provisioningrequests")
                .withKind("ProvisioningRequest").withScope("Namespaced").build());
        fabric8 = server.createClient();
        front = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        front.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread thread = new Thread(r, "mock-kubernetes-front");
            thread.setDaemon(true);
            return thread;
        }));
        front.createContext("/", this::handle);
        front.start();
    }

    /** A client-java client on the front server; read timeout zero as informers need. */
    public ApiClient apiClient() {
        ApiClient client = new ClientBuilder().setBasePath("http://127.0.0.1:" + front.getAddress().getPort()).build();
        client.setReadTimeout(0);
        return client;
    }

    /** fabric8 client straight on the mock: the test's hands in the cluster. */
    public KubernetesClient client() {
        return fabric8;
    }

    /** The next {@code times} evictions of this pod answer 429 Too Many Requests. */
    public void refuseEvictions(String podName, int times) {
        disruptionBudgetRefusals.put(podName, new AtomicInteger(times));
    }

    public List<String> evictionAttempts() {
        return List.copyOf(evictionAttempts);
    }

    /** "METHOD path" of every request client-java made, watches included. */
    public List<String> requests() {
        return requests.stream().map(r -> r.method() + " " + r.path()).toList();
    }

    /** Every request client-java made, with its query (a watch is a GET with {@code watch=true}). */
    public List<ApiRequest> apiRequests() {
        return List.copyOf(requests);
    }

    /** One request as the front server received it; {@code query} is null when there was none. */
    public record ApiRequest(String method, String path, String query) {
        public boolean isWatch() {
            return query != null && (query.contains("watch=true") || query.contains("watch=1"));
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        String query = exchange.getRequestURI().getRawQuery();
        ApiRequest request = new ApiRequest(exchange.getRequestMethod(), path, query);
        requests.add(request);
        try {
            Matcher eviction = EVICTION.matcher(path);
            if ("POST".equals(exchange.getRequestMethod()) && eviction.matches()) {
                evict(exchange, eviction.group(1), eviction.group(2));
            } else if ("PATCH".equals(exchange.getRequestMethod()) && isMergePatch(exchange)) {
                mergePatch(exchange, path + (query == null ? "" : "?" + query));
            } else if (request.isWatch()) {
                streamWatch(exchange, path + "?" + query);
            } else {
                forward(exchange, path + (query == null ? "" : "?" + query));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            exchange.close();
        }
    }

    private void evict(HttpExchange exchange, String namespace, String pod) throws IOException, InterruptedException {
        evictionAttempts.add(pod);
        AtomicInteger refusals = disruptionBudgetRefusals.get(pod);
        if (refusals != null && refusals.getAndDecrement() > 0) {
            respond(exchange, 429, status(429, "TooManyRequests",
                    "Cannot evict pod as it would violate the pod's disruption budget."));
            return;
        }
        HttpResponse<String> deleted = http.send(
                HttpRequest.newBuilder(mock("/api/v1/namespaces/" + namespace + "/pods/" + pod)).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        if (deleted.statusCode() == 404) {
            respond(exchange, 404, status(404, "NotFound", "pods \"" + pod + "\" not found"));
        } else {
            respond(exchange, 201, "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"" + pod
                    + "\",\"namespace\":\"" + namespace + "\"}}");
        }
    }

    private void streamWatch(HttpExchange exchange, String pathAndQuery) throws IOException, InterruptedException {
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        OutputStream body = exchange.getResponseBody();
        CountDownLatch closed = new CountDownLatch(1);
        StringBuilder partial = new StringBuilder();
        WebSocket socket = http.newWebSocketBuilder()
                .buildAsync(URI.create("ws://127.0.0.1:" + server.getPort() + pathAndQuery), new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                        partial.append(data);
                        if (last) {
                            try {
                                body.write((partial + "\n").getBytes(StandardCharsets.UTF_8));
                                body.flush();
                            } catch (IOException e) {
                                closed.countDown();
                            }
                            partial.setLength(0);
                        }
                        webSocket.request(1);
                        return CompletableFuture.completedFuture(null);
                    }

                    @Override
                    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                        closed.countDown();
                        return null;
                    }

                    @Override
                    public void onError(WebSocket webSocket, Throwable error) {
                        closed.countDown();
                    }
                }).join();
        closed.await();
        socket.abort();
    }

    private static boolean isMergePatch(HttpExchange exchange) {
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        return contentType != null && contentType.startsWith("application/merge-patch+json");
    }

    private void mergePatch(HttpExchange exchange, String pathAndQuery) throws IOException, InterruptedException {
        JsonNode patch = json.readTree(exchange.getRequestBody().readAllBytes());
        HttpResponse<byte[]> current = http.send(HttpRequest.newBuilder(mock(pathAndQuery.split("\\?")[0])).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (current.statusCode() != 200) {
            relay(exchange, current.statusCode(), current.body());
            return;
        }
        JsonNode patched = JsonMergePatch.apply(json.readTree(current.body()), patch);
        HttpResponse<byte[]> replaced = http.send(HttpRequest.newBuilder(mock(pathAndQuery))
                        .header("Content-Type", "application/json")
                        .PUT(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(patched)))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        relay(exchange, replaced.statusCode(), replaced.body());
    }

    private void forward(HttpExchange exchange, String pathAndQuery) throws IOException, InterruptedException {
        byte[] requestBody = typedLease(pathAndQuery, exchange.getRequestBody().readAllBytes());
        HttpRequest.Builder request = HttpRequest.newBuilder(mock(pathAndQuery))
                .method(exchange.getRequestMethod(), requestBody.length == 0
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(requestBody));
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        relay(exchange, response.statusCode(), asList(pathAndQuery, response.body()));
    }

    private static void relay(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            exchange.getResponseBody().write(body);
        }
    }

    private byte[] typedLease(String pathAndQuery, byte[] body) {
        if (body.length == 0 || !LEASE.matcher(pathAndQuery.split("\\?")[0]).matches()
                || !(json.readTree(body) instanceof ObjectNode lease) || lease.has("kind")) {
            return body;
        }
        lease.put("apiVersion", "coordination.k8s.io/v1");
        lease.put("kind", "Lease");
        return json.writeValueAsBytes(lease);
    }

    /**
     * The mock answers a list of custom resources with none stored as a discovery request
     * (APIResourceList), and may leave list metadata out; client-java's reflector needs an
     * empty list with metadata.
     */
    private byte[] asList(String pathAndQuery, byte[] body) {
        if (body.length == 0 || body[0] != '{') {
            return body;
        }
        JsonNode tree = json.readTree(body);
        boolean collection = COLLECTION.matcher(pathAndQuery.split("\\?")[0]).matches();
        if (collection && "APIResourceList".equals(tree.path("kind").asString(""))) {
            ObjectNode list = json.createObjectNode();
            list.put("apiVersion", tree.path("groupVersion").asString("v1"));
            list.put("kind", "List");
            list.putObject("metadata").put("resourceVersion", "");
            list.putArray("items");
            return json.writeValueAsBytes(list);
        }
        if (tree instanceof ObjectNode list && list.has("items") && !list.has("metadata")) {
            list.putObject("metadata").put("resourceVersion", "");
            return json.writeValueAsBytes(list);
        }
        return body;
    }

    private URI mock(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + server.getPort() + pathAndQuery);
    }

    private static String status(int code, String reason, String message) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Failure\",\"code\":" + code
                + ",\"reason\":\"" + reason + "\",\"message\":\"" + message + "\"}";
    }

    private static void respond(HttpExchange exchange, int code, String body) throws IOException {
        relay(exchange, code, body.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        front.stop(0);
        fabric8.close();
        server.destroy();
    }
}
