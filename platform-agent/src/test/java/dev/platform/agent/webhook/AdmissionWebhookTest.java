package dev.platform.agent.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.agent.Agent;
import dev.platform.agent.testing.ApiServerAdmission;
import dev.platform.agent.testing.ApiServerAdmission.Answer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * AdmissionReviews as kube-apiserver sends them, over HTTPS to a client that trusts only the webhook's published
 * CA, and the exact patch or refusal answered: the seed's JobSets verbatim, batch Jobs as Kueue's job webhook
 * treats them (a JobSet's own Jobs left to it), JobSets and Jobs without a queue name inside and outside the managed
 * namespaces, updates of admitted and waiting ones, a dry run.
 */
class AdmissionWebhookTest {

    private static final JsonMapper json = Agent.json();
    private static final String JOBSET_MUTATE = "/mutate-jobset-x-k8s-io-v1alpha2-jobset";
    private static final String JOBSET_VALIDATE = "/validate-jobset-x-k8s-io-v1alpha2-jobset";
    private static final String JOB_MUTATE = "/mutate-batch-v1-job";
    private static final String JOB_VALIDATE = "/validate-batch-v1-job";
    private static final JsonNode SUSPEND = json.readTree("[{\"op\":\"add\",\"path\":\"/spec/suspend\",\"value\":true}]");

    private static final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private static WebhookCertificate certificate;
    private static WebhookServer server;
    private static ApiServerAdmission apiServer;

    @BeforeAll
    static void serve() {
        certificate = WebhookCertificate.generate(List.of("localhost", "127.0.0.1"), Instant.now());
        // jobs without a queue name are managed in namespaces labelled team=ml
        ManagedJobs managed = new ManagedJobs(true, labels -> "ml".equals(labels.get("team")), "default",
                namespace -> namespace.startsWith("ml-") ? Map.of("team", "ml") : Map.of());
        server = new WebhookServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new AdmissionWebhook(managed, json, registry), new ServingKeys(certificate.identity()));
        server.start();
        apiServer = new ApiServerAdmission(URI.create("https://localhost:" + server.port()), certificate.caBundle(Instant.now()));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void theSeedsJobSetsVerbatimAreSuspendedOnCreate() throws IOException {
        for (JsonNode jobSet : seedJobSets()) {
            Answer answer = apiServer.review(JOBSET_MUTATE, "CREATE", jobSet, null, false);

            assertThat(answer.allowed()).isTrue();
            assertThat(answer.response().path("patchType").asString()).isEqualTo("JSONPatch");
            assertThat(answer.patch()).isEqualTo(SUSPEND);
            JsonNode stored = ApiServerAdmission.apply(jobSet, answer.patch());
            assertThat(apiServer.review(JOBSET_VALIDATE, "CREATE", stored, null, false).allowed()).isTrue();
        }
    }

    @Test
    void aJobThatNamesAQueueIsSuspendedOnCreateAsKueueSuspendsIt() {
        ObjectNode running = job("train", "default", "team-queue", false);
        ObjectNode unsaid = job("train", "default", "team-queue", null);

        Answer replaced = apiServer.review(JOB_MUTATE, "CREATE", running, null, false);
        Answer added = apiServer.review(JOB_MUTATE, "CREATE", unsaid, null, false);

        assertThat(replaced.patch()).isEqualTo(json.readTree("[{\"op\":\"replace\",\"path\":\"/spec/suspend\",\"value\":true}]"));
        assertThat(added.patch()).isEqualTo(SUSPEND);
        assertThat(apiServer.review(JOB_VALIDATE, "CREATE", ApiServerAdmission.apply(running, replaced.patch()), null, false)
                .allowed()).isTrue();
        Answer unreviewedRun = apiServer.review(JOB_VALIDATE, "CREATE", running, null, false);
        assertThat(unreviewedRun.allowed()).isFalse();
        assertThat(unreviewedRun.status().path("message").asString()).isEqualTo("Job.batch \"train\" is invalid:"
                + " spec.suspend: Forbidden: the platform has not admitted this Job: it stays suspended until the platform"
                + " starts it (its events say why it waits)");
        assertThat(registry.find("platform.agent.webhook.reviews").tag("kind", "Job").tag("outcome", "suspended")
                .counters()).isNotEmpty();
    }

    @Test
    void aJobWithoutQueueNameGoesToTheDefaultQueueInAManagedNamespaceOnly() {
        Answer managed = apiServer.review(JOB_MUTATE, "CREATE", job("etl", "ml-research", null, null), null, false);
        Answer unmanaged = apiServer.review(JOB_MUTATE, "CREATE", job("etl", "web", null, false), null, false);

        assertThat(managed.patch()).isEqualTo(json.readTree("""
                [{"op":"add","path":"/metadata/labels","value":{"kueue.x-k8s.io/queue-name":"default"}},
                 {"op":"add","path":"/spec/suspend","value":true}]"""));
        assertThat(unmanaged.allowed()).isTrue();
        assertThat(unmanaged.response().has("patch")).isFalse();
        assertThat(apiServer.review(JOB_VALIDATE, "CREATE", job("etl", "web", null, false), null, false).allowed()).isTrue();
    }

    @Test
    void theJobsOfAJobSetAreLeftToTheirJobSet() {
        ObjectNode child = job("low-jax-trillium-slice-0", "default", "team-queue", false);
        child.withObject("/metadata").putArray("ownerReferences").addObject().put("apiVersion", "jobset.x-k8s.io/v1alpha2")
                .put("kind", "JobSet").put("name", "low-jax-trillium").put("uid", "5f2a0000-0000-4000-8000-000000000001")
                .put("controller", true);

        Answer created = apiServer.review(JOB_MUTATE, "CREATE", child, null, false);

        assertThat(created.allowed()).isTrue();
        assertThat(created.response().has("patch")).isFalse();
        assertThat(apiServer.review(JOB_VALIDATE, "CREATE", child, null, false).allowed()).isTrue();
    }

    @Test
    void anAdmittedJobKeepsItsQueueNameAndPodsAndItsSuspensionIsAllowed() {
        ObjectNode admitted = startedByPlatform(job("train", "default", "team-queue", true), "9");
        ObjectNode moved = admitted.deepCopy();
        moved.withObject("/metadata/labels").put("kueue.x-k8s.io/queue-name", "other-queue");
        ObjectNode scaled = admitted.deepCopy();
        scaled.withObject("/spec").put("parallelism", 4);
        ObjectNode stopped = admitted.deepCopy();
        stopped.withObject("/spec").put("suspend", true);

        Answer renamed = apiServer.review(JOB_VALIDATE, "UPDATE", moved, admitted, false);
        Answer grown = apiServer.review(JOB_VALIDATE, "UPDATE", scaled, admitted, false);

        assertThat(renamed.status().path("message").asString()).isEqualTo("Job.batch \"train\" is invalid:"
                + " metadata.labels[kueue.x-k8s.io/queue-name]: Invalid value: \"other-queue\": field is immutable while"
                + " the workload is admitted");
        assertThat(grown.allowed()).isFalse();
        assertThat(grown.status().at("/details/causes/0/field").asString()).isEqualTo("spec.parallelism");
        assertThat(grown.status().at("/details/kind").asString()).isEqualTo("Job");
        assertThat(grown.status().at("/details/group").asString()).isEqualTo("batch");
        assertThat(apiServer.review(JOB_VALIDATE, "UPDATE", stopped, admitted, false).allowed()).isTrue();
    }

    @Test
    void aWaitingJobIsNotUnsuspendedButByThePlatformsStart() {
        ObjectNode waiting = job("train", "default", "team-queue", true);
        ObjectNode resumedByHand = job("train", "default", "team-queue", false);
        ObjectNode pinned = startedByPlatform(waiting, "12");
        pinned.withObject("/spec/template/spec").putObject("nodeSelector")
                .put("cloud.google.com/gke-tpu-accelerator", "tpu-v6e-slice");

        Answer byHand = apiServer.review(JOB_VALIDATE, "UPDATE", resumedByHand, waiting, false);
        Answer byThePlatform = apiServer.review(JOB_VALIDATE, "UPDATE", pinned, waiting, false);

        assertThat(byHand.allowed()).isFalse();
        assertThat(byHand.status().at("/details/causes/0/field").asString()).isEqualTo("spec.suspend");
        assertThat(byThePlatform.allowed()).isTrue();
        assertThat(apiServer.review(JOB_MUTATE, "CREATE", startedByPlatform(job("etl", "default", "team-queue", null), "4"),
                null, false).response().has("patch")).isFalse();
    }

    @Test
    void aJobSetWithoutQueueNameGoesToTheDefaultQueueInAManagedNamespaceOnly() {
        Answer managed = apiServer.review(JOBSET_MUTATE, "CREATE", jobSet("etl", "ml-research"), null, false);
        Answer unmanaged = apiServer.review(JOBSET_MUTATE, "CREATE", jobSet("etl", "web"), null, false);
        ObjectNode labelled = jobSet("etl", "ml-research");
        labelled.withObject("/metadata").putObject("labels").put("app", "etl");
        Answer withLabels = apiServer.review(JOBSET_MUTATE, "CREATE", labelled, null, false);
        ObjectNode running = jobSet("etl", "web");
        running.withObject("/spec").put("suspend", false);

        assertThat(managed.patch()).isEqualTo(json.readTree("""
                [{"op":"add","path":"/metadata/labels","value":{"kueue.x-k8s.io/queue-name":"default"}},
                 {"op":"add","path":"/spec/suspend","value":true}]"""));
        assertThat(withLabels.patch()).isEqualTo(json.readTree("""
                [{"op":"add","path":"/metadata/labels/kueue.x-k8s.io~1queue-name","value":"default"},
                 {"op":"add","path":"/spec/suspend","value":true}]"""));
        assertThat(unmanaged.allowed()).isTrue();
        assertThat(unmanaged.response().has("patch")).isFalse();
        assertThat(apiServer.review(JOBSET_VALIDATE, "CREATE", running, null, false).allowed()).isTrue();
    }

    @Test
    void anAdmittedJobSetKeepsItsQueueName() throws IOException {
        ObjectNode admitted = startedByPlatform(seedJobSets().get(0), "7");
        ObjectNode moved = admitted.deepCopy();
        moved.withObject("/metadata/annotations").put("kueue.x-k8s.io/queue-name", "other-queue");

        Answer answer = apiServer.review(JOBSET_VALIDATE, "UPDATE", moved, admitted, false);

        assertThat(answer.allowed()).isFalse();
        assertThat(answer.status().path("code").asInt()).isEqualTo(422);
        assertThat(answer.status().path("reason").asString()).isEqualTo("Invalid");
        assertThat(answer.status().path("message").asString()).isEqualTo("JobSet.jobset.x-k8s.io \"low-jax-trillium\""
                + " is invalid: metadata.annotations[kueue.x-k8s.io/queue-name]: Invalid value: \"other-queue\":"
                + " field is immutable while the workload is admitted");
        assertThat(answer.status().at("/details/causes/0/field").asString())
                .isEqualTo("metadata.annotations[kueue.x-k8s.io/queue-name]");
    }

    @Test
    void aWaitingJobSetIsNotUnsuspendedButByThePlatformsStart() throws IOException {
        ObjectNode waiting = seedJobSets().get(1);
        waiting.withObject("/spec").put("suspend", true);
        ObjectNode resumedByHand = waiting.deepCopy();
        resumedByHand.withObject("/spec").put("suspend", false);

        Answer byHand = apiServer.review(JOBSET_VALIDATE, "UPDATE", resumedByHand, waiting, false);
        Answer byThePlatform = apiServer.review(JOBSET_VALIDATE, "UPDATE", startedByPlatform(waiting, "12"), waiting, false);

        assertThat(byHand.allowed()).isFalse();
        assertThat(byHand.status().path("message").asString()).isEqualTo("JobSet.jobset.x-k8s.io \"high-jax-trillium\""
                + " is invalid: spec.suspend: Forbidden: the platform has not admitted this JobSet: it stays suspended"
                + " until the platform starts it (its events say why it waits)");
        assertThat(byThePlatform.allowed()).isTrue();
    }

    @Test
    void anAdmittedJobSetKeepsItsPodSetsAndItsSuspensionIsAllowed() throws IOException {
        ObjectNode admitted = startedByPlatform(seedJobSets().get(0), "7");
        ObjectNode grown = admitted.deepCopy();
        ((ObjectNode) grown.at("/spec/replicatedJobs/0")).put("replicas", 4);
        ObjectNode stopped = admitted.deepCopy();
        stopped.withObject("/spec").put("suspend", true);
        ObjectNode queueRenamedWhileStopped = stopped.deepCopy();
        queueRenamedWhileStopped.withObject("/metadata/annotations").put("kueue.x-k8s.io/queue-name", "other-queue");

        Answer answer = apiServer.review(JOBSET_VALIDATE, "UPDATE", grown, admitted, false);

        assertThat(answer.allowed()).isFalse();
        assertThat(answer.status().at("/details/causes/0/field").asString()).isEqualTo("spec.replicatedJobs");
        assertThat(answer.status().at("/details/causes/0/message").asString()).isEqualTo("Forbidden: the pod sets of an"
                + " admitted workload are immutable: its quota was reserved for them");
        assertThat(apiServer.review(JOBSET_VALIDATE, "UPDATE", stopped, admitted, false).allowed()).isTrue();
        assertThat(apiServer.review(JOBSET_VALIDATE, "UPDATE", queueRenamedWhileStopped, stopped, false).allowed()).isTrue();
    }

    @Test
    void theJobSetsThePlatformCreatesPassUnchanged() throws IOException {
        Answer answer = apiServer.review(JOBSET_MUTATE, "CREATE", startedByPlatform(seedJobSets().get(0), "3"), null, false);

        assertThat(answer.allowed()).isTrue();
        assertThat(answer.response().has("patch")).isFalse();
    }

    @Test
    void aDryRunIsAnsweredAsARealReviewAndChangesNothing() throws IOException {
        ObjectNode jobSet = seedJobSets().get(1);
        double before = suspendedCount();

        Answer dryRun = apiServer.review(JOBSET_MUTATE, "CREATE", jobSet, null, true);
        double afterDryRun = suspendedCount();
        apiServer.review(JOBSET_MUTATE, "CREATE", jobSet, null, false);

        assertThat(dryRun.patch()).isEqualTo(SUSPEND);
        assertThat(afterDryRun).isEqualTo(before);
        assertThat(suspendedCount()).isEqualTo(before + 1);
    }

    @Test
    void aClientThatDoesNotTrustTheCaIsRefusedTheHandshake() {
        HttpClient untrusting = HttpClient.newBuilder()
                .sslContext(ApiServerAdmission.trusting(WebhookCertificate.generate(List.of("localhost"), Instant.now())
                        .caBundle(Instant.now())))
                .build();

        assertThatThrownBy(() -> untrusting.send(HttpRequest.newBuilder(
                        URI.create("https://localhost:" + server.port() + JOBSET_MUTATE))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(SSLHandshakeException.class);
    }

    @Test
    void aReviewOfTheWrongKindOrNoReviewIsABadRequest() throws Exception {
        HttpClient trusting = HttpClient.newBuilder()
                .sslContext(ApiServerAdmission.trusting(certificate.caBundle(Instant.now()))).build();

        HttpResponse<String> notAReview = trusting.send(HttpRequest.newBuilder(
                        URI.create("https://localhost:" + server.port() + JOB_MUTATE))
                .POST(HttpRequest.BodyPublishers.ofString("{\"kind\":\"Pod\"}")).build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> elsewhere = trusting.send(HttpRequest.newBuilder(
                        URI.create("https://localhost:" + server.port() + "/mutate-v1-pod"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(notAReview.statusCode()).isEqualTo(400);
        assertThat(notAReview.body()).contains("expected an admission.k8s.io/v1 AdmissionReview");
        assertThat(elsewhere.statusCode()).isEqualTo(404);
        assertThatThrownBy(() -> apiServer.review(JOB_MUTATE, "CREATE", seedJobSets().get(0), null, false))
                .hasMessageContaining("400").hasMessageContaining("/mutate-batch-v1-job reviews batch/v1 Job, not"
                        + " jobset.x-k8s.io/v1alpha2 JobSet");
    }

    private static double suspendedCount() {
        var counter = registry.find("platform.agent.webhook.reviews").tag("kind", "JobSet").tag("outcome", "suspended")
                .counter();
        return counter == null ? 0 : counter.count();
    }

    /** As a START leaves a JobSet or Job: the platform's labels, the command's id, running. */
    private static ObjectNode startedByPlatform(ObjectNode jobSet, String commandId) {
        ObjectNode started = jobSet.deepCopy();
        started.withObject("/metadata").withObject("labels").put("platform.dev/managed", "true")
                .put("platform.dev/workload-uid", "4f1c9a2e-0000-4000-8000-000000000001");
        started.withObject("/metadata/annotations").put("platform.dev/last-command-id", commandId);
        started.withObject("/spec").put("suspend", false);
        return started;
    }

    /** A JobSet without a queue name, as a user who never heard of queues writes it. */
    private static ObjectNode jobSet(String name, String namespace) {
        ObjectNode jobSet = json.createObjectNode();
        jobSet.put("apiVersion", "jobset.x-k8s.io/v1alpha2");
        jobSet.put("kind", "JobSet");
        jobSet.putObject("metadata").put("name", name).put("namespace", namespace);
        ObjectNode job = jobSet.putObject("spec").putArray("replicatedJobs").addObject();
        job.put("name", "worker");
        job.withObject("/template/spec/template/spec").putArray("containers").addObject().put("name", "main")
                .put("image", "busybox");
        return jobSet;
    }

    private static ObjectNode job(String name, String namespace, String queueLabel, Boolean suspend) {
        ObjectNode job = json.createObjectNode();
        job.put("apiVersion", "batch/v1");
        job.put("kind", "Job");
        ObjectNode metadata = job.putObject("metadata");
        metadata.put("name", name);
        metadata.put("namespace", namespace);
        if (queueLabel != null) {
            metadata.putObject("labels").put("kueue.x-k8s.io/queue-name", queueLabel);
        }
        ObjectNode spec = job.putObject("spec");
        if (suspend != null) {
            spec.put("suspend", suspend);
        }
        spec.put("parallelism", 2);
        spec.put("completions", 2);
        spec.withObject("/template/spec").putArray("containers").addObject().put("name", "main").put("image", "busybox");
        return job;
    }

    /** The seed's JobSets as kubectl sends them: verbatim, with the namespace kubectl fills in. */
    @SuppressWarnings("unchecked")
    static List<ObjectNode> seedJobSets() throws IOException {
        List<ObjectNode> jobSets = new ArrayList<>();
        try (InputStream in = AdmissionWebhookTest.class.getResourceAsStream("/seed-manifests/seed-kueue-and-hotswap.yaml")) {
            for (Object document : new Yaml().loadAll(in)) {
                Map<String, Object> manifest = (Map<String, Object>) document;
                if ("JobSet".equals(manifest.get("kind"))) {
                    ObjectNode jobSet = json.valueToTree(manifest);
                    jobSet.withObject("/metadata").put("namespace", "default");
                    jobSets.add(jobSet);
                }
            }
        }
        return jobSets;
    }
}
