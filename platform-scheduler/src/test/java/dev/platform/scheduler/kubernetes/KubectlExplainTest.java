package dev.platform.scheduler.kubernetes;

import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.TestIdentity;
import dev.platform.scheduler.tls.HttpsEndpoint;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code kubectl explain} of the oldest and the newest kubectl the machine image carries reads the served OpenAPI v3
 * and prints Kueue's and JobSet's fields with their descriptions, in the version asked for.
 */
class KubectlExplainTest extends PlatformApplicationTest {

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
        assumeTrue(Files.isExecutable(Kubectl.binary(version)), Kubectl.binary(version) + " is not installed:"
                + " kubectl explain with kubectl " + version + " is skipped");
        Kubectl kubectl = Kubectl.of(version, dir, "https://127.0.0.1:" + httpsPort + "/k8s",
                https.authorityPem().orElseThrow(), TestIdentity.ADMIN_TOKEN, "default");
        List<String> command = new ArrayList<>(List.of("explain"));
        command.addAll(List.of(arguments));
        return kubectl.ok(command.toArray(String[]::new)).replaceAll("\\s+", " ");
    }
}
