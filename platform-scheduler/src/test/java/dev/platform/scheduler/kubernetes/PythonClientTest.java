package dev.platform.scheduler.kubernetes;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.TlsClients;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Debian's Kubernetes Python client ({@code python3-kubernetes}, for Debian's own {@code /usr/bin/python3}, which is
 * not the python first on PATH here) against the platform with nothing but the kubeconfig it hands out: it lists
 * ClusterQueues and Kueue Workloads as custom objects, namespaces and events as typed objects (which it checks field
 * by field), and watches Workloads from a list's resourceVersion while JobSets are submitted. Skipped, and said so,
 * where the client is not installed.
 */
class PythonClientTest extends PlatformApplicationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * Prints one JSON line per step. argv: the kubeconfig, then the JobSet whose Workload's event ends the watch. The
     * watch starts from the list's resourceVersion, so it misses nothing submitted after the list.
     */
    private static final String SCRIPT = """
            import json, sys
            from kubernetes import client, config, watch

            config.load_kube_config(config_file=sys.argv[1])
            custom = client.CustomObjectsApi()
            core = client.CoreV1Api()

            def say(step, **fields):
                print(json.dumps(dict(step=step, **fields)), flush=True)

            def owner(workload):
                reference = workload["metadata"]["ownerReferences"][0]
                return reference["kind"] + "/" + reference["name"]

            queues = custom.list_cluster_custom_object("kueue.x-k8s.io", "v1beta2", "clusterqueues")
            say("clusterqueues", apiVersion=queues["apiVersion"], kind=queues["kind"], items=[dict(
                name=q["metadata"]["name"],
                quota=q["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"])
                for q in queues["items"]])

            namespaces = core.list_namespace()
            say("namespaces", resourceVersion=namespaces.metadata.resource_version, items=[dict(
                name=n.metadata.name, labels=n.metadata.labels) for n in namespaces.items])

            events = core.list_namespaced_event("team-a")
            say("events", items=[dict(involved=e.involved_object.kind + "/" + e.involved_object.name, reason=e.reason,
                type=e.type) for e in events.items])

            workloads = custom.list_namespaced_custom_object("kueue.x-k8s.io", "v1beta2", "team-a", "workloads")
            listed = workloads["metadata"]["resourceVersion"]
            say("workloads", resourceVersion=listed, items=[dict(name=w["metadata"]["name"], owner=owner(w),
                queue=w["spec"]["queueName"]) for w in workloads["items"]])

            stream = watch.Watch()
            for event in stream.stream(custom.list_namespaced_custom_object, "kueue.x-k8s.io", "v1beta2", "team-a",
                                       "workloads", resource_version=listed, timeout_seconds=60):
                workload = event["object"]
                say("event", type=event["type"], name=workload["metadata"]["name"], owner=owner(workload),
                    resourceVersion=workload["metadata"]["resourceVersion"])
                if owner(workload) == "JobSet/" + sys.argv[2]:
                    stream.stop()
            say("done")
            """;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void listsQueuesWorkloadsNamespacesAndEventsAndWatchesWorkloadsFromAListsResourceVersion() throws Exception {
        assumeTrue(Files.isExecutable(TlsClients.DEBIAN_PYTHON), TlsClients.DEBIAN_PYTHON
                + " is not installed: the Python client is skipped");
        assumeTrue(python("-c", "import kubernetes").waitFor() == 0,
                "python3-kubernetes is not installed for " + TlsClients.DEBIAN_PYTHON + ": the Python client is skipped");
        assertThat(api.postYaml("/api/v1/manifests", KubernetesClients.TEAM_A_AND_QUEUE).status()).isEqualTo(200);
        submit("before");
        // admitted, so its timeline has events to list
        await().atMost(Duration.ofSeconds(30)).until(() -> api.get("/api/v1/namespaces/team-a/workloads/before")
                .json().get("state").asString(), "Admitted"::equals);
        // the kubeconfig the platform hands out, as it is
        PlatformClient.Response minted = api.post("/api/v1/kubeconfig", "application/json", "");
        assertThat(minted.status()).isEqualTo(200);
        Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), minted.body());
        Path script = Files.writeString(dir.resolve("client.py"), SCRIPT);

        Process python = python(script.toString(), kubeconfig.toString(), "during-2");
        List<JsonNode> steps = new ArrayList<>();
        StringBuilder output = new StringBuilder();
        boolean secondSubmitted = false;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(python.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                output.append(line).append('\n');
                if (!line.startsWith("{")) {
                    continue;
                }
                JsonNode step = JSON.readTree(line);
                steps.add(step);
                // one JobSet after the list, before or while the watch opens; the next once the watch streams
                if (step.get("step").asString().equals("workloads")) {
                    submit("during-1");
                }
                if (step.get("step").asString().equals("event")
                        && step.get("owner").asString().equals("JobSet/during-1") && !secondSubmitted) {
                    submit("during-2");
                    secondSubmitted = true;
                }
            }
        }
        assertThat(python.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(python.exitValue()).as(output.toString()).isZero();

        JsonNode queues = step(steps, "clusterqueues");
        assertThat(queues.get("apiVersion").asString()).isEqualTo("kueue.x-k8s.io/v1beta2");
        assertThat(queues.get("kind").asString()).isEqualTo("ClusterQueueList");
        assertThat(queues.get("items")).singleElement().satisfies(q -> {
            assertThat(q.get("name").asString()).isEqualTo("cq");
            assertThat(q.get("quota").asString()).isEqualTo("4");
        });
        JsonNode namespaces = step(steps, "namespaces");
        assertThat(namespaces.get("resourceVersion").asString()).matches("\\d+");
        assertThat(namespaces.get("items")).anySatisfy(n -> {
            assertThat(n.get("name").asString()).isEqualTo("team-a");
            assertThat(n.get("labels").get("owner").asString()).isEqualTo("research");
        });
        assertThat(step(steps, "events").get("items")).anySatisfy(e -> {
            assertThat(e.get("involved").asString()).isEqualTo("JobSet/before");
            assertThat(e.get("reason").asString()).isEqualTo("Admitted");
            assertThat(e.get("type").asString()).isEqualTo("Normal");
        });
        JsonNode workloads = step(steps, "workloads");
        assertThat(workloads.get("items")).singleElement().satisfies(w -> {
            assertThat(w.get("name").asString()).startsWith("jobset-before-");
            assertThat(w.get("owner").asString()).isEqualTo("JobSet/before");
            assertThat(w.get("queue").asString()).isEqualTo("lq");
        });

        long listed = Long.parseLong(workloads.get("resourceVersion").asString());
        List<JsonNode> events = steps.stream().filter(s -> s.get("step").asString().equals("event")).toList();
        assertThat(events).allSatisfy(e -> assertThat(Long.parseLong(e.get("resourceVersion").asString()))
                .isGreaterThan(listed));
        assertThat(events).noneSatisfy(e -> {
            assertThat(e.get("owner").asString()).isEqualTo("JobSet/before");
            assertThat(e.get("type").asString()).isEqualTo("ADDED");
        });
        for (String jobSet : List.of("during-1", "during-2")) {
            assertThat(events).anySatisfy(e -> {
                assertThat(e.get("owner").asString()).isEqualTo("JobSet/" + jobSet);
                assertThat(e.get("name").asString()).startsWith("jobset-" + jobSet + "-");
                assertThat(e.get("type").asString()).isIn("ADDED", "MODIFIED");
            });
        }
        assertThat(steps.get(steps.size() - 1).get("step").asString()).isEqualTo("done");
    }

    private void submit(String jobSet) {
        assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.onePodJobSet(jobSet,
                Map.of("kueue.x-k8s.io/queue-name", "lq"), Map.of(), "1")).status()).isEqualTo(201);
    }

    private static JsonNode step(List<JsonNode> steps, String name) {
        return steps.stream().filter(s -> s.get("step").asString().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("the client printed no " + name + " in " + steps));
    }

    /** Debian's python with this host's proxy settings dropped: it talks to this host only. */
    private static Process python(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(TlsClients.DEBIAN_PYTHON.toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.toLowerCase().endsWith("_proxy"));
        return builder.start();
    }
}
