package dev.platform.agent.scheduler;

import dev.platform.agent.AgentMetrics;
import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.AgentDecisions;
import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandResults;
import dev.platform.api.agent.ProvisioningRequestReport;
import dev.platform.api.agent.ProvisioningRequestSpec;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The agent's side of the protocol: reports, long-polled commands, results. Every
 * call either succeeds or throws {@link SchedulerUnavailableException}; retrying is the caller's
 * choice because a report and a command result retry differently.
 */
public class SchedulerClient {

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
    private static final TypeReference<List<AgentCommand>> COMMAND_LIST = new TypeReference<>() {
    };

    private static final TypeReference<List<ProvisioningRequestSpec>> PROVISIONING_LIST = new TypeReference<>() {
    };

    private final URI schedulerUrl;
    private final String cluster;
    private final String token;
    private final String instance;
    private final HttpClient http;
    private final JsonMapper json;
    private final AgentMetrics metrics;
    private final SchedulerReachability reachability;

    /**
     * @param instance this agent process, in {@link AgentProtocol#INSTANCE_HEADER} on every call: the scheduler
     *                 hears one instance per cluster at a time
     */
    public SchedulerClient(URI schedulerUrl, String cluster, String token, String instance, JsonMapper json,
                           AgentMetrics metrics) {
        this(schedulerUrl, cluster, token, instance, json, metrics,
                new SchedulerReachability(schedulerUrl, Clock.systemUTC()));
    }

    SchedulerClient(URI schedulerUrl, String cluster, String token, String instance, JsonMapper json,
                    AgentMetrics metrics, SchedulerReachability reachability) {
        this.reachability = reachability;
        this.schedulerUrl = schedulerUrl;
        this.cluster = cluster;
        this.token = token;
        this.instance = instance;
        this.json = json;
        this.metrics = metrics;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    public ReportAcceptance sendReport(AgentReport report) throws SchedulerUnavailableException {
        long started = System.nanoTime();
        try {
            HttpResponse<String> response = send(post(AgentProtocol.REPORTS_PATH, report).timeout(CALL_TIMEOUT));
            if (response.statusCode() == 409 && anotherAgentSpeaks(response)) {
                throw new SchedulerUnavailableException("refused: " + problemDetail(response));
            }
            if (response.statusCode() == 409) {
                metrics.reportSent(report.kind(), "full_required", Duration.ofNanos(System.nanoTime() - started));
                return ReportAcceptance.FULL_REPORT_REQUIRED;
            }
            requireSuccess(response);
            metrics.reportSent(report.kind(), "accepted", Duration.ofNanos(System.nanoTime() - started));
            return ReportAcceptance.ACCEPTED;
        } catch (SchedulerUnavailableException e) {
            metrics.reportSent(report.kind(), "failed", Duration.ofNanos(System.nanoTime() - started));
            metrics.schedulerUnavailable("report");
            throw e;
        }
    }

    /**
     * Long poll. {@code after} null asks for the commands after the last one the scheduler has
     * an acknowledgement for, which is how a restarted agent resumes.
     */
    public List<AgentCommand> pollCommands(Long after, int waitSeconds) throws SchedulerUnavailableException {
        String query = AgentProtocol.WAIT_SECONDS_PARAM + "=" + waitSeconds
                + (after == null ? "" : "&" + AgentProtocol.AFTER_PARAM + "=" + after);
        try {
            HttpResponse<String> response = send(authorized(resolve(AgentProtocol.COMMANDS_PATH, query))
                    .timeout(CALL_TIMEOUT.plusSeconds(waitSeconds))
                    .GET());
            requireSuccess(response);
            return json.readValue(response.body(), COMMAND_LIST);
        } catch (JacksonException e) {
            metrics.schedulerUnavailable("poll");
            throw new SchedulerUnavailableException("unreadable command list: " + e.getOriginalMessage(), e);
        } catch (SchedulerUnavailableException e) {
            metrics.schedulerUnavailable("poll");
            throw e;
        }
    }

    /**
     * The platform's decisions about this cluster's workloads after {@code after} (null: none, only where the feed
     * stands now); empty when the scheduler is of an earlier version, without the endpoint (404).
     */
    public Optional<AgentDecisions> decisions(Long after) throws SchedulerUnavailableException {
        try {
            HttpResponse<String> response = send(authorized(resolve(AgentProtocol.DECISIONS_PATH,
                    after == null ? null : AgentProtocol.AFTER_PARAM + "=" + after)).timeout(CALL_TIMEOUT).GET());
            if (response.statusCode() == 404) {
                return Optional.empty();
            }
            requireSuccess(response);
            return Optional.of(json.readValue(response.body(), AgentDecisions.class));
        } catch (JacksonException e) {
            metrics.schedulerUnavailable("decisions");
            throw new SchedulerUnavailableException("unreadable decisions: " + e.getOriginalMessage(), e);
        } catch (SchedulerUnavailableException e) {
            metrics.schedulerUnavailable("decisions");
            throw e;
        }
    }

    public void postResult(CommandResult result) throws SchedulerUnavailableException {
        String path = AgentProtocol.COMMAND_RESULT_PATH.replace("{id}", Long.toString(result.commandId()));
        try {
            requireSuccess(send(post(path, result).timeout(CALL_TIMEOUT)));
        } catch (SchedulerUnavailableException e) {
            metrics.schedulerUnavailable("result");
            throw e;
        }
    }

    /** Final results, many in one request (at most {@link AgentProtocol#MAX_RESULTS_PER_BATCH}), recorded as one. */
    public void postResults(List<CommandResult> results) throws SchedulerUnavailableException {
        try {
            requireSuccess(send(post(AgentProtocol.COMMAND_RESULTS_PATH, new CommandResults(results)).timeout(CALL_TIMEOUT)));
        } catch (SchedulerUnavailableException e) {
            metrics.schedulerUnavailable("results");
            throw e;
        }
    }

    /**
     * The ProvisioningRequests the cluster should hold; empty when the scheduler does not serve them (a version
     * before admission checks answers 404), so that nothing the agent made is deleted on that account.
     */
    public java.util.Optional<List<ProvisioningRequestSpec>> provisioningRequests() throws SchedulerUnavailableException {
        try {
            HttpResponse<String> response = send(authorized(resolve(AgentProtocol.PROVISIONING_REQUESTS_PATH, null))
                    .timeout(CALL_TIMEOUT).GET());
            if (response.statusCode() == 404) {
                return java.util.Optional.empty();
            }
            requireSuccess(response);
            return java.util.Optional.of(json.readValue(response.body(), PROVISIONING_LIST));
        } catch (JacksonException e) {
            metrics.schedulerUnavailable("provisioning");
            throw new SchedulerUnavailableException("unreadable ProvisioningRequest list: " + e.getOriginalMessage(), e);
        } catch (SchedulerUnavailableException e) {
            metrics.schedulerUnavailable("provisioning");
            throw e;
        }
    }

    /** The conditions of every ProvisioningRequest the agent manages. */
    public void postProvisioningStatus(List<ProvisioningRequestReport> reports) throws SchedulerUnavailableException {
        try {
            requireSuccess(send(post(AgentProtocol.PROVISIONING_REQUEST_STATUS_PATH, reports).timeout(CALL_TIMEOUT)));
        } catch (SchedulerUnavailableException e) {
            metrics.schedulerUnavailable("provisioning");
            throw e;
        }
    }

    /**
     * How long a loop waits before its retry {@code attempt} (0 for the first) of a failed call: {@code backoff}'s
     * delay once the scheduler has answered, at most a second before (it is most likely starting).
     */
    public Duration retryDelay(Backoff backoff, int attempt) {
        return reachability.retryDelay(backoff, attempt, ThreadLocalRandom.current());
    }

    private HttpRequest.Builder post(String path, Object body) {
        return authorized(resolve(path, null))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body)));
    }

    private HttpRequest.Builder authorized(URI uri) {
        return HttpRequest.newBuilder(uri)
                .header("Authorization", "Bearer " + token)
                .header(AgentProtocol.INSTANCE_HEADER, instance)
                .header("Accept", "application/json");
    }

    private URI resolve(String pathTemplate, String query) {
        String path = pathTemplate.replace("{cluster}", URLEncoder.encode(cluster, StandardCharsets.UTF_8));
        String base = schedulerUrl.toString().replaceAll("/+$", "");
        return URI.create(base + path + (query == null ? "" : "?" + query));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws SchedulerUnavailableException {
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            reachability.answered();
            return response;
        } catch (IOException e) {
            reachability.unreachable(e.toString());
            throw new SchedulerUnavailableException("scheduler unreachable: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchedulerUnavailableException("interrupted", e);
        }
    }

    private void requireSuccess(HttpResponse<String> response) throws SchedulerUnavailableException {
        if (response.statusCode() / 100 != 2) {
            throw new SchedulerUnavailableException(response.request().method() + " " + response.uri().getPath()
                    + " answered " + response.statusCode() + (response.statusCode() / 100 == 4
                    ? ": " + problemDetail(response) : ""));
        }
    }

    /** The scheduler hears another instance of an agent for this cluster, and not this one. */
    private boolean anotherAgentSpeaks(HttpResponse<String> response) {
        return AgentProtocol.ANOTHER_AGENT_TITLE.equals(problemField(response, "title"));
    }

    /** What the scheduler's problem answer says is wrong, or the body as it came. */
    private String problemDetail(HttpResponse<String> response) {
        String detail = problemField(response, "detail");
        return detail != null ? detail : response.body();
    }

    private String problemField(HttpResponse<String> response, String field) {
        try {
            JsonNode value = json.readTree(response.body()).get(field);
            return value == null || !value.isString() ? null : value.asString();
        } catch (JacksonException notJson) {
            return null;
        }
    }
}
