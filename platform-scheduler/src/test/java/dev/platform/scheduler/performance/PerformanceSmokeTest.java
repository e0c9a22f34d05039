package dev.platform.scheduler.performance;

import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every end-to-end benchmark at smoke size on the suite's shared application, so that the benchmarks keep working
 * between full runs: a Kueue shape of 2 ClusterQueues and 40 workloads through the simulated agent, REST
 * submissions, pgbench (skipped, and said so, where it is not installed), the agent's commands, admissions from a backlog, a rebuild,
 * and the Kubernetes API's list, watch and apply (kubectl skipped, and said so, where it is not installed).
 * The figures mean nothing at this size and on the tests' non-durable database: they and the results table
 * rendered from them go to a temporary directory, never into docs/.
 */
class PerformanceSmokeTest extends PlatformApplicationTest {

    @Test
    void everyBenchmarkRunsAtSmokeSize(@TempDir Path output) throws IOException {
        SchedulerHost host = new SharedApplicationHost(port, jdbc, loop);

        Map<String, Object> shape = KueueShapeRun.run(host, KueueShape.baseline().scaledDown(1, 2, 25), 4,
                Duration.ofMinutes(2));
        assertThat(shape).containsEntry("workloads", 40).containsEntry("failed", 0L);
        PerformanceResults.record(output, "baseline", shape);

        Map<String, Object> rest = RestSubmissionRun.run(host, 4, 20, 20);
        assertThat(rest).containsEntry("submissions", 80L);
        PerformanceResults.record(output, "rest", rest);
        EndToEndBenchmark.pgbench(host.postgres(), 4, 1, Duration.ofSeconds(2))
                .ifPresent(figures -> PerformanceResults.record(output, "pgbench", figures));

        Map<String, Object> commands = AgentCommandRun.run(host, 20);
        assertThat(commands).containsEntry("commands", 40L).containsEntry("succeeded", 40L);
        PerformanceResults.record(output, "agent", commands);

        Map<String, Object> admission = AdmissionThroughputRun.run(host, 4, 200);
        assertThat(admission).containsEntry("startCommands", 200L).containsEntry("quotaRows", 200L);
        PerformanceResults.record(output, "admission", admission);

        Map<String, Object> startup = StartupRun.run(host, 2, 2, 5, 10);
        assertThat(startup).containsEntry("pending", 40).containsEntry("admitted", 20);
        PerformanceResults.record(output, "heap", startup);

        KubernetesApiRun.seed(host, 2, 3, 10);
        Map<String, Object> list = KubernetesApiRun.list(host, 50, 1);
        assertThat(list).containsKey("p99Millis");
        PerformanceResults.record(output, "kubernetesList", list);
        Map<String, Object> watch = KubernetesApiRun.watch(host, 3, 40, 10, Duration.ofSeconds(2), 20);
        assertThat(watch).containsEntry("changes", 80).containsEntry("missing", 0L);
        PerformanceResults.record(output, "kubernetesWatch", watch);
        Map<String, Object> apply = KubernetesApiRun.apply(host, 10, output.resolve("kubectl"));
        assertThat(apply).containsEntry("jobSets", 10);
        PerformanceResults.record(output, "kubernetesApply", apply);

        Path markdown = output.resolve("performance.md");
        Files.writeString(markdown, "# Performance\n\n" + PerformanceResults.BEGIN + "\n" + PerformanceResults.END + "\n");
        PerformanceResults.publish(output, output.resolve("results.json"), markdown, "smoke");
        assertThat(Files.readString(markdown)).contains("| baseline: wall time | ", "| REST submissions per second | ",
                        "| Kubernetes API: list page of 500 workloads as a Table, p99 | ")
                .as("a run smaller than Kueue's is not judged against Kueue's figures")
                .containsPattern("\\| baseline: wall time \\|[^\n]*\\| not comparable: \\d+ of Kueue's 15,000 workloads \\|")
                .doesNotContainPattern("\\| baseline: mean time to admission, small \\|[^\n]*\\| (met|\\*\\*missed)");
        assertThat(Files.readString(output.resolve("results.json"))).contains("\"wallSeconds\"",
                "\"meanTimeToAdmissionSeconds\"", "\"submissionsPerSecond\"", "\"perSecond\"", "\"commandsPerSecond\"",
                "\"quotaHeldBeyondRuntimeP99Seconds\"");
    }
}
