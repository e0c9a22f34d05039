package dev.platform.scheduler.performance;

import dev.platform.api.agent.CommandPayload;
import dev.platform.scheduler.testsupport.SimulatedAgent;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.platform.scheduler.performance.KueueShapeRun.round;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The agent's command path alone: with the real agent in-process on a simulated cluster, {@code workloads} one-pod
 * workloads each get a START and then a STOP, written straight into the command outbox in one transaction (as
 * the decision writer queues them); the clock runs until every command has its final result recorded. The figure
 * is commands executed and acknowledged per second: delivery by long poll, execution in the agent's lanes (each
 * workload's STOP after its START), results posted back and committed.
 */
final class AgentCommandRun {

    static final String NAMESPACE = "agent-drain";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private AgentCommandRun() {
    }

    static Map<String, Object> run(SchedulerHost host, int workloads) {
        LoadAverage load = LoadAverage.start();
        try (SimulatedAgent agent = SimulatedAgent.start(host.port(), host.api())) {
            host.jdbc().sql("""
                            INSERT INTO agent_command (cluster, type, workload_uid, namespace, name, payload)
                            SELECT 'sim', t.type, md5(?::text || g)::uuid, ?, 'drain-' || g,
                                   CASE WHEN t.type = 'START' THEN replace(?, '@NAME@', 'drain-' || g)::jsonb END
                            FROM generate_series(1, ?) g, (VALUES (1, 'START'), (2, 'STOP')) t(o, type)
                            ORDER BY g, t.o""")
                    .params(NAMESPACE, NAMESPACE, startPayload(), workloads).update();
            await().atMost(Duration.ofMinutes(30)).pollInterval(Duration.ofMillis(100)).until(() -> host.jdbc()
                    .sql("SELECT count(*) FROM agent_command WHERE namespace = ? AND acked_at IS NOT NULL")
                    .param(NAMESPACE).query(Long.class).single() == 2L * workloads);
        }
        Map<String, Object> figures = new LinkedHashMap<>();
        host.jdbc().sql("""
                        SELECT count(*) AS commands, count(*) FILTER (WHERE state = 'Succeeded') AS succeeded,
                               extract(epoch FROM max(acked_at) - min(created_at)) AS seconds,
                               extract(epoch FROM percentile_cont(0.99) WITHIN GROUP (ORDER BY acked_at - created_at))
                                   AS p99
                        FROM agent_command WHERE namespace = ?""")
                .param(NAMESPACE)
                .query(rs -> {
                    figures.put("workloads", workloads);
                    figures.put("commands", rs.getLong("commands"));
                    figures.put("succeeded", rs.getLong("succeeded"));
                    figures.put("seconds", round(rs.getDouble("seconds")));
                    figures.put("commandsPerSecond", round(rs.getLong("commands") / rs.getDouble("seconds")));
                    figures.put("queuedToAcknowledgedP99Seconds", round(rs.getDouble("p99")));
                });
        figures.put("loadAverage", load.end());
        assertThat(figures).containsEntry("succeeded", 2L * workloads);
        return figures;
    }

    /** A START's payload for a one-pod JobSet on the simulated CPU pool; {@code @NAME@} is each workload's name. */
    private static String startPayload() {
        ObjectNode manifest = JSON.createObjectNode().put("apiVersion", "jobset.x-k8s.io/v1alpha2").put("kind", "JobSet");
        manifest.putObject("metadata").put("name", "@NAME@").put("namespace", NAMESPACE);
        manifest.putObject("spec").putArray("replicatedJobs").addObject().put("name", "main").put("replicas", 1)
                .putObject("template").putObject("spec").put("parallelism", 1).put("completions", 1)
                .putObject("template").putObject("spec").putArray("containers").addObject().put("name", "main")
                .put("image", "busybox");
        return JSON.writeValueAsString(new CommandPayload(manifest, null, List.of("sim-cpu"), Map.of(), "cpu"));
    }
}
