package dev.platform.scheduler.kubernetes;

import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.SeedManifests;
import dev.platform.scheduler.testsupport.TestIdentity;
import dev.platform.scheduler.tls.HttpsEndpoint;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A Kueue user's kubectl habits against the platform's Kubernetes API, with the oldest and the newest kubectl of the
 * machine image (skipped, and said so, where the binary is absent): discovery, applying the seed as it is with
 * kubectl's default validation, Kueue's and JobSet's columns, waiting for admission, events in describe, watching,
 * deleting and applying again, field validation, dry runs, patches, access reviews and refusals.
 */
class KubectlWorkflowTest extends PlatformApplicationTest {

    private static final String SEED = "seed-kueue-and-hotswap.yaml";

    @Value("${" + HttpsEndpoint.LOCAL_PORT_PROPERTY + "}")
    int httpsPort;

    @Autowired
    HttpsEndpoint https;

    @TempDir
    Path dir;

    private Kubectl kubectl(String version, String token) throws Exception {
        assumeTrue(Files.isExecutable(Kubectl.binary(version)), Kubectl.binary(version)
                + " is not installed: the kubectl " + version + " workflow is skipped");
        return Kubectl.of(version, dir, "https://localhost:" + httpsPort + "/k8s", https.authorityPem().orElseThrow(),
                token, "default");
    }

    private Path seed() throws Exception {
        return Files.writeString(dir.resolve(SEED), SeedManifests.read(SEED));
    }

    @ParameterizedTest(name = "kubectl {0}")
    @ValueSource(strings = {"1.27", "1.33"})
    void theSeedIsAppliedAsItIsAndReadWithKueuesColumns(String version) throws Exception {
        Kubectl kubectl = kubectl(version, TestIdentity.ADMIN_TOKEN);

        assertThat(kubectl.ok("version")).contains("Server Version: ", "v1.33.0+platform");
        assertThat(kubectl.ok("api-resources")).contains("clusterqueues", " cq ", "localqueues", "lq",
                "resourceflavors", "rf", "workloadpriorityclasses", "wpc", "workloads", "kwl", "jobsets",
                "priorityclasses", "namespaces", "events", "teams", "selfsubjectaccessreviews");

        String first = kubectl.ok("apply", "-f", seed().toString());
        assertThat(first).contains("priorityclass.scheduling.k8s.io/low-priority-job created",
                "resourceflavor.kueue.x-k8s.io/tpu-v6e-slice created", "clusterqueue.kueue.x-k8s.io/tpu-training-cq created",
                "localqueue.kueue.x-k8s.io/default-queue created", "jobset.jobset.x-k8s.io/low-jax-trillium created",
                "jobset.jobset.x-k8s.io/high-jax-trillium created");
        String again = kubectl.ok("apply", "-f", seed().toString());
        assertThat(again).contains("clusterqueue.kueue.x-k8s.io/tpu-training-cq unchanged",
                "jobset.jobset.x-k8s.io/high-jax-trillium unchanged").doesNotContain("configured", "created");

        assertThat(kubectl.ok("get", "cq")).containsPattern("NAME\\s+COHORT\\s+PENDING WORKLOADS")
                .contains("tpu-training-cq");
        assertThat(kubectl.ok("get", "cq", "-o", "wide")).containsPattern("STRATEGY\\s+PENDING WORKLOADS\\s+ADMITTED WORKLOADS")
                .contains("BestEffortFIFO");
        assertThat(kubectl.ok("get", "lq", "-A")).containsPattern("NAMESPACE\\s+NAME\\s+CLUSTERQUEUE\\s+PENDING WORKLOADS")
                .contains("default-queue");
        assertThat(kubectl.ok("get", "jobsets")).containsPattern("NAME\\s+TERMINALSTATE\\s+RESTARTS\\s+COMPLETED\\s+SUSPENDED")
                .contains("low-jax-trillium", "high-jax-trillium");

        String workload = kubectl.ok("get", "workloads", "-o",
                "jsonpath={.items[?(@.metadata.ownerReferences[0].name==\"low-jax-trillium\")].metadata.name}").strip();
        assertThat(workload).startsWith("jobset-low-jax-trillium-").hasSize("jobset-low-jax-trillium-".length() + 5);
        assertThat(kubectl.ok("wait", "--for=condition=Admitted", "workload/" + workload, "--timeout=60s"))
                .contains("condition met");
        assertThat(kubectl.ok("get", "workloads", "-A")).containsPattern(
                "NAMESPACE\\s+NAME\\s+QUEUE\\s+RESERVED IN\\s+ADMITTED\\s+FINISHED\\s+AGE")
                .containsPattern(workload + "\\s+default-queue\\s+tpu-training-cq\\s+True");

        Path checks = Files.writeString(dir.resolve("checks.yaml"), """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ProvisioningRequestConfig
                metadata:
                  name: dws-queued
                spec:
                  provisioningClassName: queued-provisioning.gke.io
                  managedResources: [google.com/tpu]
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: AdmissionCheck
                metadata:
                  name: dws
                spec:
                  controllerName: kueue.x-k8s.io/provisioning-request
                  parameters:
                    apiGroup: kueue.x-k8s.io
                    kind: ProvisioningRequestConfig
                    name: dws-queued
                """);
        assertThat(kubectl.ok("apply", "-f", checks.toString())).contains(
                "provisioningrequestconfig.kueue.x-k8s.io/dws-queued created", "admissioncheck.kueue.x-k8s.io/dws created");
        assertThat(kubectl.ok("get", "admissionchecks.kueue.x-k8s.io", "dws", "-o", "jsonpath={.spec.controllerName}"))
                .isEqualTo("kueue.x-k8s.io/provisioning-request");
        assertThat(kubectl.ok("apply", "-f", checks.toString())).contains("admissioncheck.kueue.x-k8s.io/dws unchanged");

        assertThat(kubectl.ok("describe", "jobset", "low-jax-trillium")).contains("Events:", "QuotaReserved");
        assertThat(kubectl.ok("describe", "workload", workload)).contains("Events:", "Admitted");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @ValueSource(strings = {"1.27", "1.33"})
    void theSeedSubmittedThroughRestIsTakenOverByKubectlApply(String version) throws Exception {
        Kubectl kubectl = kubectl(version, TestIdentity.ADMIN_TOKEN);
        assertThat(api.postYaml("/api/v1/manifests", SeedManifests.read(SEED)).status()).isEqualTo(200);

        // objects kubectl did not create lack its last-applied annotation: apply adds it, as to any object
        assertThat(kubectl.ok("apply", "-f", seed().toString())).contains(
                "jobset.jobset.x-k8s.io/high-jax-trillium configured", "jobset.jobset.x-k8s.io/low-jax-trillium configured");
        assertThat(kubectl.ok("apply", "-f", seed().toString())).contains(
                "jobset.jobset.x-k8s.io/high-jax-trillium unchanged", "jobset.jobset.x-k8s.io/low-jax-trillium unchanged");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @ValueSource(strings = {"1.27", "1.33"})
    void aWatchStreamsChangesAndADeletedNameIsAppliedAgainAsANewWorkload(String version) throws Exception {
        Kubectl kubectl = kubectl(version, TestIdentity.ADMIN_TOKEN);
        kubectl.ok("apply", "-f", seed().toString());
        String oldUid = kubectl.ok("get", "jobset", "high-jax-trillium", "-o", "jsonpath={.metadata.uid}").strip();
        Path watched = dir.resolve("watch.txt");
        Process watch = kubectl.start(watched, "get", "workloads", "-w", "--output-watch-events");
        try {
            awaitOutput(watched, "jobset-high-jax-trillium-");

            assertThat(kubectl.ok("delete", "jobset", "high-jax-trillium", "--timeout=20s"))
                    .contains("jobset.jobset.x-k8s.io \"high-jax-trillium\" deleted");
            Kubectl.Run gone = kubectl.run("get", "jobset", "high-jax-trillium");
            assertThat(gone.exit()).isNotZero();
            assertThat(gone.output()).contains("jobsets.jobset.x-k8s.io \"high-jax-trillium\" not found");
            awaitOutput(watched, "DELETED");

            assertThat(kubectl.ok("apply", "-f", seed().toString())).contains("jobset.jobset.x-k8s.io/high-jax-trillium created");
            String newUid = kubectl.ok("get", "jobset", "high-jax-trillium", "-o", "jsonpath={.metadata.uid}").strip();
            assertThat(newUid).isNotEmpty().isNotEqualTo(oldUid);
            String newWorkload = kubectl.ok("get", "workloads", "-o",
                    "jsonpath={.items[?(@.metadata.ownerReferences[0].uid==\"" + newUid + "\")].metadata.name}").strip();
            awaitOutput(watched, "ADDED");
            awaitOutput(watched, newWorkload);
        } finally {
            watch.destroy();
        }
        assertThat(api.get("/api/v1/namespaces/default/workloads/high-jax-trillium").json().get("uid").asString())
                .as("the REST API reads the name's new holder").isEqualTo(newUidOf(kubectl));
    }

    @ParameterizedTest(name = "kubectl {0}")
    @ValueSource(strings = {"1.27", "1.33"})
    void eventsAreWatchedAsTheyHappen(String version) throws Exception {
        Kubectl kubectl = kubectl(version, TestIdentity.ADMIN_TOKEN);
        kubectl.ok("apply", "-f", seed().toString());
        Path watched = dir.resolve("events.txt");
        Process watch = kubectl.start(watched, "get", "events", "-w");
        try {
            awaitOutput(watched, "jobset/low-jax-trillium");
            assertThat(Files.readString(watched)).doesNotContain("later-jax-trillium");

            Path later = Files.writeString(dir.resolve("later.yaml"),
                    SeedManifests.read(SEED).replace("low-jax-trillium", "later-jax-trillium"));
            kubectl.ok("apply", "-f", later.toString());

            awaitOutput(watched, "jobset/later-jax-trillium");
        } finally {
            watch.destroy();
        }
        assertThat(Files.readString(watched)).doesNotContain("MethodNotAllowed").doesNotContain("rror");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @ValueSource(strings = {"1.27", "1.33"})
    void aSubmittedJobChangedWhereItMayNotIsRefusedAsByTheApiServerAndTheWebhooks(String version) throws Exception {
        Kubectl kubectl = kubectl(version, TestIdentity.ADMIN_TOKEN);
        kubectl.ok("apply", "-f", seed().toString());
        Path job = Files.writeString(dir.resolve("job.yaml"), """
                apiVersion: batch/v1
                kind: Job
                metadata: {name: once, labels: {kueue.x-k8s.io/queue-name: default-queue}}
                spec:
                  completions: 1
                  template:
                    spec:
                      restartPolicy: Never
                      containers: [{name: main, image: busybox, resources: {requests: {google.com/tpu: "4"}}}]
                """);
        kubectl.ok("apply", "-f", job.toString());

        Path resized = Files.writeString(dir.resolve("resized.yaml"), SeedManifests.read(SEED)
                .replace("parallelism: 4", "parallelism: 2").replace("completions: 4", "completions: 2"));
        Kubectl.Run jobSet = kubectl.run("apply", "-f", resized.toString());
        assertThat(jobSet.exit()).isNotZero();
        assertThat(jobSet.output()).contains("Error from server (Forbidden)", "admission webhook \"vjobset.kb.io\""
                + " denied the request: spec.replicatedJobs: Invalid value: field is immutable");

        Kubectl.Run twice = kubectl.run("apply", "-f", Files.writeString(job, Files.readString(job)
                .replace("completions: 1", "completions: 2")).toString());
        assertThat(twice.exit()).isNotZero();
        assertThat(twice.output()).contains("The Job \"once\" is invalid: spec.completions: Invalid value: field is"
                + " immutable");
    }

    /** The last line of {@code kubectl auth can-i}: kubectl warns before it of a namespace given to a cluster kind. */
    private static String answer(String output) {
        String[] lines = output.strip().split("\n");
        return lines[lines.length - 1].strip();
    }

    /** Waits for {@code text} in a background kubectl's output, which a failure shows. */
    private static void awaitOutput(Path output, String text) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(Files.readString(output)).contains(text));
    }

    private static String newUidOf(Kubectl kubectl) throws Exception {
        return kubectl.ok("get", "jobset", "high-jax-trillium", "-o", "jsonpath={.metadata.uid}").strip();
    }

    @ParameterizedTest(name = "kubectl {0}")
    @ValueSource(strings = {"1.27", "1.33"})
    void fieldValidationDryRunsPatchesAndServerSideApplyAreKubernetes(String version) throws Exception {
        Kubectl kubectl = kubectl(version, TestIdentity.ADMIN_TOKEN);
        kubectl.ok("apply", "-f", seed().toString());

        Path typo = Files.writeString(dir.resolve("typo.yaml"), """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata:
                  name: typo-flavor
                spec:
                  nodeLabel:
                    cloud.google.com/gke-tpu-accelerator: tpu-v6e-slice
                """);
        Kubectl.Run strict = kubectl.run("apply", "-f", typo.toString());
        assertThat(strict.exit()).isNotZero();
        assertThat(strict.output()).contains("strict decoding error", "unknown field \"spec.nodeLabel\"");
        assertThat(kubectl.ok("apply", "--validate=warn", "-f", typo.toString()))
                .contains("unknown field \"spec.nodeLabel\"", "resourceflavor.kueue.x-k8s.io/typo-flavor created");

        Path extra = Files.writeString(dir.resolve("extra.yaml"), SeedManifests.document(SEED, "high-jax-trillium")
                .replace("name: high-jax-trillium", "name: dry-run-trillium"));
        assertThat(kubectl.ok("apply", "--dry-run=server", "-f", extra.toString()))
                .contains("jobset.jobset.x-k8s.io/dry-run-trillium created (server dry run)");
        assertThat(kubectl.run("get", "jobset", "dry-run-trillium").output()).contains("not found");

        Path early = Files.writeString(dir.resolve("early.yaml"), SeedManifests.document(SEED, "high-jax-trillium")
                .replace("name: high-jax-trillium", "name: before-its-queue")
                .replace("kueue.x-k8s.io/queue-name: default-queue", "kueue.x-k8s.io/queue-name: later-queue"));
        assertThat(kubectl.ok("apply", "-f", early.toString())).as("accepted before its LocalQueue, with a warning")
                .contains("jobset.jobset.x-k8s.io/before-its-queue created", "Warning:", "later-queue");
        assertThat(api.get("/api/v1/namespaces/default/workloads/before-its-queue").json().at("/pendingReason/code")
                .asString()).isEqualTo("LocalQueueNotFound");

        assertThat(kubectl.ok("patch", "cq", "tpu-training-cq", "--type=merge", "-p", "{\"spec\":{\"stopPolicy\":\"Hold\"}}"))
                .contains("clusterqueue.kueue.x-k8s.io/tpu-training-cq patched");
        assertThat(kubectl.ok("get", "cq", "tpu-training-cq", "-o", "jsonpath={.spec.stopPolicy}")).isEqualTo("Hold");
        assertThat(api.get("/api/v1/clusterqueues/tpu-training-cq").json().at("/spec/stopPolicy").asString())
                .isEqualTo("Hold");

        assertThat(kubectl.ok("apply", "--server-side", "-f", extra.toString()))
                .contains("jobset.jobset.x-k8s.io/dry-run-trillium serverside-applied");
        assertThat(kubectl.ok("get", "jobset", "dry-run-trillium", "-o", "jsonpath={.metadata.name}"))
                .isEqualTo("dry-run-trillium");
    }

    @ParameterizedTest(name = "kubectl {0}")
    @ValueSource(strings = {"1.27", "1.33"})
    void serverSideApplyRefusesAnotherManagersFieldsUntilForcedAndTheVisibilityApiAnswers(String version)
            throws Exception {
        Kubectl kubectl = kubectl(version, TestIdentity.ADMIN_TOKEN);
        kubectl.ok("apply", "-f", seed().toString());
        Path strict = Files.writeString(dir.resolve("strict.yaml"), SeedManifests.document(SEED, "tpu-training-cq")
                .replace("queueingStrategy: BestEffortFIFO", "queueingStrategy: StrictFIFO"));

        Kubectl.Run conflict = kubectl.run("apply", "--server-side", "-f", strict.toString());
        assertThat(conflict.exit()).isNotZero();
        assertThat(conflict.output()).contains("Apply failed with", "conflict with \"kubectl-client-side-apply\"",
                ".spec.queueingStrategy");
        assertThat(kubectl.ok("get", "cq", "tpu-training-cq", "-o", "jsonpath={.spec.queueingStrategy}"))
                .isEqualTo("BestEffortFIFO");

        assertThat(kubectl.ok("apply", "--server-side", "--force-conflicts", "-f", strict.toString()))
                .contains("clusterqueue.kueue.x-k8s.io/tpu-training-cq serverside-applied");
        assertThat(kubectl.ok("get", "cq", "tpu-training-cq", "-o", "jsonpath={.spec.queueingStrategy}"))
                .isEqualTo("StrictFIFO");
        assertThat(kubectl.ok("get", "cq", "tpu-training-cq", "-o", "yaml", "--show-managed-fields"))
                .contains("manager: kubectl", "operation: Apply", "f:queueingStrategy: {}",
                        "manager: kubectl-client-side-apply");

        // kubectl get --raw takes its path from the host's root, not from the kubeconfig's server path
        for (String path : List.of("/k8s/apis/visibility.kueue.x-k8s.io/v1beta1/clusterqueues/tpu-training-cq/pendingworkloads",
                "/apis/visibility.kueue.x-k8s.io/v1beta2/clusterqueues/tpu-training-cq/pendingworkloads")) {
            assertThat(kubectl.ok("get", "--raw", path)).contains("\"kind\":\"PendingWorkloadsSummary\"",
                    "high-jax-trillium", "\"positionInClusterQueue\":0");
        }
    }

    @ParameterizedTest(name = "kubectl {0}")
    @ValueSource(strings = {"1.27", "1.33"})
    void authCanIAnswersByTheCallersRolesAndAnEngineerIsForbiddenOutsideTheTeam(String version) throws Exception {
        Kubectl admin = kubectl(version, TestIdentity.ADMIN_TOKEN);
        admin.ok("apply", "-f", seed().toString());
        Path team = Files.writeString(dir.resolve("team.yaml"), """
                apiVersion: platform.dev/v1
                kind: Team
                metadata:
                  name: ml-research
                spec:
                  namespaces: [default]
                  members: [{user: bob, role: Engineer}]
                """);
        admin.ok("apply", "-f", team.toString());
        assertThat(api.postJson("/api/v1/users", "{\"name\":\"bob\",\"password\":\"a-password-for-bob-1\"}")
                .status()).isEqualTo(201);
        String bobToken = api.postJson("/api/v1/tokens", "{\"user\":\"bob\",\"description\":\"kubectl\"}").json()
                .get("token").asString();
        Kubectl bob = kubectl(version, bobToken);

        assertThat(answer(admin.ok("auth", "can-i", "create", "clusterqueues"))).isEqualTo("yes");
        assertThat(answer(bob.run("auth", "can-i", "create", "clusterqueues").output())).startsWith("no");
        assertThat(answer(bob.ok("auth", "can-i", "create", "jobsets", "-n", "default"))).isEqualTo("yes");
        assertThat(answer(bob.run("auth", "can-i", "delete", "jobsets", "-n", "vision").output())).startsWith("no");

        assertThat(bob.ok("get", "jobsets")).contains("low-jax-trillium");
        Kubectl.Run forbidden = bob.run("get", "jobsets", "-n", "vision");
        assertThat(forbidden.exit()).isNotZero();
        assertThat(forbidden.output()).contains("Error from server (Forbidden)", "jobsets.jobset.x-k8s.io is forbidden",
                "User \"bob\" cannot list resource \"jobsets\" in API group \"jobset.x-k8s.io\" in the namespace \"vision\"");
        Kubectl.Run configuration = bob.run("delete", "cq", "tpu-training-cq");
        assertThat(configuration.output()).contains("Error from server (Forbidden)", "cannot delete resource \"clusterqueues\"",
                "at the cluster scope");
    }
}
