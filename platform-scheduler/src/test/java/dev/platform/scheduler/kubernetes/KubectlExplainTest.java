package dev.platform.scheduler.kubernetes;

import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.TestIdentity;
import dev.platform.scheduler.tls.HttpsEndpoint;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code kubectl explain} of the oldest and the newest kubectl the machine image carries reads the served OpenAPI v3
 * and prints Kueue's and JobSet's fields with their descriptions, in the version asked for.
 */
class KubectlExplainTest extends PlatformApplicationTest {

    private static final Path KUBECTLS = Path.of("/usr/lib/google-cloud-sdk/bin");

    @Value("${" + HttpsEndpoint.LOCAL_PORT_PROPERTY + "}")
    int httpsPort;

    @Autowired
    HttpsEndpoint https;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "kubectl {0}")
    @ValueSource(strings = {"1.27", "1.33"})
    void explainsAClusterQueuesPreemption(String version) throws Exception {
        String explained = explain(version, "clusterqueue.spec.preemption");

        assertThat(explained).contains("kueue.x-k8s.io", "ClusterQueue", "v1beta2", "preemption <Object>",
                "ClusterQueuePreemption: when a pending workload of this ClusterQueue may preempt admitted workloads",
                "withinClusterQueue <string>", "reclaimWithinCohort <string>", "borrowWithinCohort <Object>",
                "reclaimOutOfCohort <Object>", "LowerOrNewerEqualPriority: those of lower priority, and those of equal",
                "to take back quota that is its ClusterQueue's own",
                "accepted so that the seed's manifests apply unchanged, and without effect");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @ValueSource(strings = {"1.27", "1.33"})
    void explainsAJobSetsReplicatedJobs(String version) throws Exception {
        String explained = explain(version, "jobset.spec.replicatedJobs");

        assertThat(explained).contains("jobset.x-k8s.io", "JobSet", "v1alpha2", "replicatedJobs <[]Object>",
                "ReplicatedJob: Jobs created from one template", "name <string> -required-", "replicas <integer>",
                "template <Object> -required-", "groupName <string>", "dependsOn <[]Object>",
                "How many Jobs to create from the template");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @ValueSource(strings = {"1.27", "1.33"})
    void explainsEachKueueVersionInItsOwnWords(String version) throws Exception {
        String v1beta1 = explain(version, "clusterqueue.spec", "--api-version=kueue.x-k8s.io/v1beta1");
        String v1beta2 = explain(version, "clusterqueue.spec");
        String quota = explain(version, "clusterqueue.spec.resourceGroups.flavors.resources.nominalQuota");

        assertThat(v1beta1).contains("v1beta1", "cohort <string>", "admissionChecks <[]string>")
                .doesNotContain("cohortName");
        assertThat(v1beta2).contains("v1beta2", "cohortName <string>").doesNotContain("cohort <string>",
                "admissionChecks <");
        assertThat(quota).contains("nominalQuota", "The quantity of this resource that the workloads admitted through"
                + " the ClusterQueue may use at once");
    }

    /** kubectl's explanation with its lines joined: the words, not where kubectl wraps them. */
    private String explain(String version, String... arguments) throws Exception {
        Path kubectl = KUBECTLS.resolve("kubectl." + version);
        assumeTrue(Files.isExecutable(kubectl), kubectl + " is not installed: kubectl explain with kubectl " + version
                + " is skipped");
        Path kubeconfig = kubeconfig();
        List<String> command = new ArrayList<>(List.of(kubectl.toString(), "--kubeconfig=" + kubeconfig, "explain"));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.toLowerCase().endsWith("_proxy"));
        builder.environment().put("KUBECACHEDIR", dir.resolve("cache-" + version).toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("kubectl explain ended").isTrue();
        assertThat(process.exitValue()).as("kubectl %s said:%n%s", String.join(" ", command), output).isZero();
        return output.replaceAll("\\s+", " ");
    }

    private Path kubeconfig() throws Exception {
        return Files.writeString(dir.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters:
                - name: platform
                  cluster:
                    server: https://127.0.0.1:%d/k8s
                    certificate-authority-data: %s
                users:
                - name: admin
                  user:
                    token: %s
                contexts:
                - name: platform
                  context:
                    cluster: platform
                    user: admin
                current-context: platform
                """.formatted(httpsPort, Base64.getEncoder().encodeToString(https.authorityPem().orElseThrow()
                .getBytes(StandardCharsets.US_ASCII)), TestIdentity.ADMIN_TOKEN));
    }
}
