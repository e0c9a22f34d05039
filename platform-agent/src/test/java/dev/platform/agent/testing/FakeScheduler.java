package dev.platform.agent.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.platform.agent.Agent;
import dev.platform.agent.AgentSettings;
import dev.platform.agent.command.EvictionPolicy;
import dev.platform.agent.scheduler.Backoff;
import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.AgentDecision;
import dev.platform.api.agent.AgentDecisions;
import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandResults;
import dev.platform.api.agent.ProvisioningRequestReport;
import dev.platform.api.agent.ProvisioningRequestSpec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import tools.jackson.databind.json.JsonMapper;

/**
 * The scheduler's side of the agent protocol, in memory: records reports and results (one per request
 * or in batches), serves
 * queued commands by long poll (without {@code after}: those with no final result, as the real
 * one does), and can play unavailable (503 to everything).
 */
public final class FakeScheduler implements AutoCloseable {

    public static final String TOKEN = "test-token";

    private final HttpServer server;
    private final JsonMapper json = Agent.json();
    private final List<AgentReport> reports = new CopyOnWriteArrayList<>();
    private final List<CommandResult> results = new CopyOnWriteArrayList<>();
    private final List<Integer> resultBatches = new CopyOnWriteArrayList<>();
    private final List<Instant> refusedCalls = new CopyOnWriteArrayList<>();
    private final List<String> unauthorized = new CopyOnWriteArrayList<>();
    private final List<AgentCommand> commands = new ArrayList<>();
    private final List<AgentDecision> decisions = new CopyOnWriteArrayList<>();
    private final List<String> decisionQueries = new CopyOnWriteArrayList<>();
    private volatile List<ProvisioningRequestSpec> provisioningRequests = List.of();
    private final List<List<ProvisioningRequestReport>> provisioningReports = new CopyOnWriteArrayList<>();
    private volatile boolean available = true;
    private boolean redeliverAcknowledged;
    private int openPolls;
    private final Set<Long> finished = new HashSet<>();

    public FakeScheduler() throws IOException {
        this(0);
    }

    /** Listening on {@code port} of the loopback interface (0: any free port). */
    public FakeScheduler(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread thread = new Thread(r, "fake-scheduler");
            thread.setDaemon(true);
            return thread;
        }));
        server.createContext("/api/v1/agent/clusters/", this::handle);
        server.start();
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /**
     * Settings of an agent of cluster {@code test-cluster} talking to this scheduler, with the short windows, backoffs
     * and eviction timeout a test wants.
     */
    public AgentSettings settings(String agentId) {
        return new AgentSettings(url(), "test-cluster", TOKEN, agentId, Duration.ofMillis(50), 1,
                new Backoff(Duration.ofMillis(50), Duration.ofMillis(400)),
                new EvictionPolicy(new Backoff(Duration.ofMillis(20), Duration.ofMillis(100)), Duration.ofSeconds(10)),
                AgentSettings.DEFAULT_HEARTBEAT);
    }

    /** A decision of the platform, served on the decision feed from now on (ids must grow). */
    public void decide(AgentDecision decision) {
        decisions.add(decision);
    }

    /** The query of every decision feed request, "" when it had none. */
    public List<String> decisionQueries() {
        return List.copyOf(decisionQueries);
    }

    public synchronized void enqueue(AgentCommand command) {
        commands.add(command);
        notifyAll();
    }

    /** What the cluster should hold from now on, as GET .../provisioningrequests answers. */
    public void setProvisioningRequests(List<ProvisioningRequestSpec> requests) {
        this.provisioningRequests = List.copyOf(requests);
    }

    /** Every list of ProvisioningRequest conditions posted, in the order they came. */
    public List<List<ProvisioningRequestReport>> provisioningReports() {
        return List.copyOf(provisioningReports);
    }

    public void setAvailable(boolean available) {
        this.available = available;
    }

    /** Polls held open right now, waiting for a command or their deadline. */
    public synchronized int openPolls() {
        return openPolls;
    }

    /** Serve commands again after their acknowledgement, as a scheduler that lost the ack would. */
    public synchronized void redeliverAcknowledged() {
        redeliverAcknowledged = true;
        notifyAll();
    }

    public List<AgentReport> reports() {
        return List.copyOf(reports);
    }

    public AgentReport lastReport() {
        return reports.isEmpty() ? null : reports.get(reports.size() - 1);
    }

    public List<CommandResult> results() {
        return List.copyOf(results);
    }

    public List<CommandResult> resultsOf(long commandId) {
        return results.stream().filter(r -> r.commandId() == commandId).toList();
    }

    /** The number of results in each batch posted, in the order they came. */
    public List<Integer> resultBatches() {
        return List.copyOf(resultBatches);
    }

    /** When calls were answered 503 while unavailable. */
    public List<Instant> refusedCalls() {
        return List.copyOf(refusedCalls);
    }

    public List<String> unauthorizedCalls() {
        return List.copyOf(unauthorized);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try {
            if (!("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                unauthorized.add(exchange.getRequestURI().getPath());
                respond(exchange, 401, "");
                return;
            }
            if (!available) {
                refusedCalls.add(Instant.now());
                respond(exchange, 503, "");
                return;
            }
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            if ("POST".equals(method) && path.endsWith("/reports")) {
                reports.add(json.readValue(exchange.getRequestBody(), AgentReport.class));
                respond(exchange, 204, "");
            } else if ("GET".equals(method) && path.endsWith("/provisioningrequests")) {
                respond(exchange, 200, json.writeValueAsString(provisioningRequests));
            } else if ("POST".equals(method) && path.endsWith("/provisioningrequests/status")) {
                provisioningReports.add(List.of(json.readValue(exchange.getRequestBody(),
                        ProvisioningRequestReport[].class)));
                respond(exchange, 204, "");
            } else if ("GET".equals(method) && path.endsWith("/commands")) {
                Instant now = Instant.now();
                respond(exchange, 200, json.writeValueAsString(poll(exchange.getRequestURI().getRawQuery()).stream()
                        .map(command -> command.sentAt(now)).toList()));
            } else if ("GET".equals(method) && path.endsWith("/decisions")) {
                String query = exchange.getRequestURI().getRawQuery();
                decisionQueries.add(query == null ? "" : query);
                long last = decisions.stream().mapToLong(AgentDecision::id).max().orElse(0);
                respond(exchange, 200, json.writeValueAsString(query == null
                        ? new AgentDecisions(List.of(), last, false)
                        : new AgentDecisions(decisions.stream()
                        .filter(d -> d.id() > Long.parseLong(query.substring(query.indexOf('=') + 1))).toList(),
                        last, false)));
            } else if ("POST".equals(method) && path.endsWith("/commands/results")) {
                List<CommandResult> batch = json.readValue(exchange.getRequestBody(), CommandResults.class).results();
                resultBatches.add(batch.size());
                batch.forEach(this::record);
                respond(exchange, 204, "");
            } else if ("POST".equals(method) && path.endsWith("/result")) {
                record(json.readValue(exchange.getRequestBody(), CommandResult.class));
                respond(exchange, 204, "");
            } else {
                respond(exchange, 404, "");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            exchange.close();
        }
    }

    private void record(CommandResult result) {
        results.add(result);
        synchronized (this) {
            if (result.status().isFinal()) {
                finished.add(result.commandId());
            }
        }
    }

    private synchronized List<AgentCommand> poll(String query) throws InterruptedException {
        Map<String, String> params = query == null ? Map.of() : java.util.Arrays.stream(query.split("&"))
                .map(p -> p.split("=", 2))
                .collect(Collectors.toMap(p -> p[0], p -> p.length > 1 ? p[1] : ""));
        long waitMillis = TimeUnit.SECONDS.toMillis(Long.parseLong(params.getOrDefault("waitSeconds", "0")));
        long deadline = System.currentTimeMillis() + waitMillis;
        openPolls++;
        try {
            return answer(params, deadline);
        } finally {
            openPolls--;
        }
    }

    private List<AgentCommand> answer(Map<String, String> params, long deadline) throws InterruptedException {
        while (true) {
            Predicate<AgentCommand> due = redeliverAcknowledged ? c -> true : params.containsKey("after")
                    ? c -> c.id() > Long.parseLong(params.get("after")) : c -> !finished.contains(c.id());
            List<AgentCommand> answer = commands.stream().filter(due).toList();
            redeliverAcknowledged = false;
            long left = deadline - System.currentTimeMillis();
            if (!answer.isEmpty() || left <= 0) {
                return answer;
            }
            wait(left);
        }
    }

    private static void respond(HttpExchange exchange, int code, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(code, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
