package dev.platform.scheduler.cluster;

import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandResults;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodeHealthReason;
import dev.platform.api.agent.NodePoolReport;
import dev.platform.api.agent.NodeReport;
import dev.platform.api.agent.ReportKind;
import dev.platform.api.agent.WorkloadPhase;
import dev.platform.api.agent.WorkloadStatusReport;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.TestIdentity;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

/** An agent's HTTP calls as the tests make them, with the cluster's test token unless told otherwise; report builders. */
public final class AgentCalls {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;

    public AgentCalls(int port) {
        this.baseUrl = "http://127.0.0.1:" + port;
    }

    public Response report(String cluster, AgentReport report) {
        return reportWithToken(cluster, TestIdentity.agentToken(cluster), report);
    }

    /** A report for {@code cluster} made with {@code token}, which may be another cluster's. */
    public Response reportWithToken(String cluster, String token, AgentReport report) {
        return send(post(path(AgentProtocol.REPORTS_PATH, cluster), JSON.writeValueAsString(report))
                .header("Authorization", "Bearer " + token));
    }

    public Response poll(String cluster, String query) {
        return send(get(cluster, query).header("Authorization", "Bearer " + TestIdentity.agentToken(cluster)));
    }

    public CompletableFuture<Response> pollAsync(String cluster, String query) {
        HttpRequest request = get(cluster, query)
                .header("Authorization", "Bearer " + TestIdentity.agentToken(cluster)).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(AgentCalls::response);
    }

    public Response result(String cluster, CommandResult result) {
        return resultWithToken(cluster, TestIdentity.agentToken(cluster), result);
    }

    public Response resultWithToken(String cluster, String token, CommandResult result) {
        String path = path(AgentProtocol.COMMAND_RESULT_PATH, cluster).replace("{id}", Long.toString(result.commandId()));
        return send(post(path, JSON.writeValueAsString(result)).header("Authorization", "Bearer " + token));
    }

    /** Results in one batch, as agents post them. */
    public Response results(String cluster, List<CommandResult> results) {
        return resultsWithToken(cluster, TestIdentity.agentToken(cluster), results);
    }

    public Response resultsWithToken(String cluster, String token, List<CommandResult> results) {
        return send(post(path(AgentProtocol.COMMAND_RESULTS_PATH, cluster),
                JSON.writeValueAsString(new CommandResults(results))).header("Authorization", "Bearer " + token));
    }

    /** A call with the given Authorization header value, or none when null. */
    public Response pollWithAuthorization(String cluster, String authorization) {
        HttpRequest.Builder request = get(cluster, "waitSeconds=0");
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return send(request);
    }

    private HttpRequest.Builder get(String cluster, String query) {
        return HttpRequest.newBuilder(URI.create(baseUrl + path(AgentProtocol.COMMANDS_PATH, cluster)
                + (query == null ? "" : "?" + query))).GET().timeout(Duration.ofSeconds(90));
    }

    private HttpRequest.Builder post(String path, String body) {
        return HttpRequest.newBuilder(URI.create(baseUrl + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(30));
    }

    private static String path(String template, String cluster) {
        return template.replace("{cluster}", cluster);
    }

    private Response send(HttpRequest.Builder request) {
        try {
            return response(http.send(request.build(), HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Response response(HttpResponse<String> response) {
        return new Response(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                response.body());
    }

    /** Two connected clusters of two healthy 4x4 pools each: prod-1 (east-0, east-1) and prod-2 (west-0, west-1). */
    void connectTwoClusters() {
        report("prod-1", full("prod-1", "agent-1", 1, List.of(tpuPool("east-0", 4, HealthState.HEALTHY),
                tpuPool("east-1", 4, HealthState.HEALTHY)), List.of()));
        report("prod-2", full("prod-2", "agent-2", 1, List.of(tpuPool("west-0", 4, HealthState.HEALTHY),
                tpuPool("west-1", 4, HealthState.HEALTHY)), List.of()));
    }

    // Report builders.

    public static AgentReport full(String cluster, String agent, long sequence, List<NodePoolReport> pools,
                            List<WorkloadStatusReport> workloads) {
        return new AgentReport(cluster, agent, true, sequence, Instant.now(), ReportKind.FULL, pools, List.of(),
                workloads, List.of());
    }

    public static AgentReport delta(String cluster, String agent, long sequence, List<NodePoolReport> pools,
                             List<String> removedPools, List<WorkloadStatusReport> workloads) {
        return new AgentReport(cluster, agent, true, sequence, Instant.now(), ReportKind.DELTA, pools, removedPools,
                workloads, List.of());
    }

    /** A TPU pool of {@code nodes} nodes with 4 chips each, all in {@code state} for {@code reasons}. */
    public static NodePoolReport tpuPool(String name, int nodes, HealthState state, NodeHealthReason... reasons) {
        return new NodePoolReport(name, "tpu-v6e-slice", "4x4", state, List.of(reasons),
                IntStream.range(0, nodes).mapToObj(i -> new NodeReport(name + "-node-" + i, state, List.of(reasons),
                        4, 4, null)).toList());
    }

    public static NodePoolReport cpuPool(String name, int nodes) {
        return new NodePoolReport(name, null, null, HealthState.HEALTHY, List.of(),
                IntStream.range(0, nodes).mapToObj(i -> new NodeReport(name + "-node-" + i, HealthState.HEALTHY,
                        List.of(), 0, 0, null)).toList());
    }

    public static WorkloadStatusReport workload(String uid, String name, WorkloadPhase phase, List<String> pools) {
        return new WorkloadStatusReport(uid, "team-a", name, phase, 0, phase == WorkloadPhase.RUNNING ? 1 : 0,
                phase == WorkloadPhase.SUCCEEDED ? 1 : 0, phase == WorkloadPhase.FAILED ? 1 : 0,
                pools.stream().map(p -> p + "-node-0").toList(), pools);
    }
}
