package dev.platform.scheduler.reliability;

import dev.platform.scheduler.testsupport.DatabaseCleaner;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.PlatformIntegrationTest;
import dev.platform.scheduler.testsupport.TestIdentity;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.platform.scheduler.reliability.HostileInput.segment;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property-based fuzzing of the REST API with jqwik's generators: every manifest kind mutated at
 * random (hostile strings, huge numbers and quantities, unicode, deep nesting, alias bombs,
 * duplicate keys, tags), every JSON body, every query and path parameter with injections (SQL,
 * header splitting, traversal, formulas). Whatever the input: no 5xx, no stack trace, a problem
 * JSON for every refusal, no injected response header, and a refused request changes no row.
 * Each request runs while the scheduling loop is paused, so the database digest taken around it
 * sees only what the request did. The seed and the counts are logged; see {@link HostileInput}
 * for replaying a seed and for the larger run.
 */
class HostileInputApiTest extends PlatformApplicationTest {

    private static final Logger log = LoggerFactory.getLogger(HostileInputApiTest.class);

    /** One of each kind the API accepts, as a Kueue user writes them. */
    private static final String KINDS = SeedManifests.read("seed-kueue-and-hotswap.yaml") + "\n---\n"
            + SeedManifests.read("seed-hotswap.yaml") + "\n---\n" + Manifests.job("job", "lq", "1", null) + """
            ---
            apiVersion: kueue.x-k8s.io/v1beta1
            kind: Cohort
            metadata: {name: org}
            spec:
              resourceGroups:
              - coveredResources: [cpu]
                flavors: [{name: default, resources: [{name: cpu, nominalQuota: "4"}]}]
            ---
            apiVersion: kueue.x-k8s.io/v1beta1
            kind: WorkloadPriorityClass
            metadata: {name: urgent}
            value: 1000
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: team-a, labels: {team: ml}}
            ---
            apiVersion: kueue.x-k8s.io/v1beta1
            kind: Workload
            metadata: {name: wl, namespace: team-a}
            spec:
              queueName: lq
              podSets: [{name: main, count: 2, template: {spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}}}]
            """;

    private static final List<String> CONTENT_TYPES = List.of("application/yaml", "application/json",
            "application/x-yaml", "text/plain", "application/merge-patch+json", "text/html", "application/xml",
            "multipart/form-data; boundary=x", "application/json; charset=ISO-8859-1", "*/*", "nonsense");

    private final Map<Integer, Integer> statuses = new TreeMap<>();
    private final List<String> failures = new ArrayList<>();
    private int requests;

    @BeforeEach
    void existingState() {
        assertThat(api.postYaml("/api/v1/manifests", SeedManifests.read("seed-kueue.yaml")).status()).isEqualTo(200);
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "LowerPriority")).status())
                .isEqualTo(200);
        assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("existing", "lq", "1", null))
                .status()).isEqualTo(201);
    }

    @AfterEach
    void report() {
        log.info("fuzz seed {} scale {}: {} requests, statuses {}", HostileInput.SEED, HostileInput.SCALE, requests,
                statuses);
        assertThat(failures).as("seed %d (replay with -Dplatform.fuzz.seed=%d)", HostileInput.SEED, HostileInput.SEED)
                .isEmpty();
    }

    @Test
    void mutatedManifestsOfEveryKind() {
        try (HostileInput input = new HostileInput("manifests")) {
            List<Map<String, Object>> kinds = HostileInput.documents(KINDS);
            for (int i = 0; i < HostileInput.tries(120); i++) {
                List<Map<String, Object>> documents = new ArrayList<>();
                for (int d = 1 + input.nextInt(3); d > 0; d--) {
                    Map<String, Object> document = input.pick(kinds);
                    documents.add(input.nextInt(4) == 0 ? document : input.mutate(document));
                }
                String body = switch (input.nextInt(5)) {
                    case 0, 1 -> HostileInput.yaml(documents);
                    case 2, 3 -> HostileInput.json(documents);
                    default -> input.malformedYaml(HostileInput.yaml(documents));
                };
                String contentType = input.nextInt(5) == 0 ? input.pick(CONTENT_TYPES)
                        : body.startsWith("{") || body.startsWith("[") ? "application/json" : "application/yaml";
                if (input.nextInt(3) == 0) {
                    String namespace = input.nextInt(2) == 0 ? "team-a" : segment(input.string());
                    Map<String, String> headers = input.nextInt(2) == 0 ? Map.of()
                            : Map.of("Idempotency-Key", printable(input.string()));
                    request("POST", "/api/v1/namespaces/" + namespace + "/workloads", headers, contentType, body);
                } else {
                    request("POST", "/api/v1/manifests" + (input.nextInt(3) == 0 ? "?dryRun=true" : ""), Map.of(),
                            contentType, body);
                }
            }
        }
    }

    @Test
    void hostileQueryAndPathParameters() {
        try (HostileInput input = new HostileInput("parameters")) {
            List<String> templates = List.of(
                    "/api/v1/namespaces/{p}/workloads?state={q}&queue={q}&cursor={q}&limit={q}",
                    "/api/v1/namespaces/team-a/workloads/{p}", "/api/v1/namespaces/{p}/workloads/{p}/events",
                    "/api/v1/preemptions?clusterQueue={q}&namespace={q}&reason={q}&since={q}&until={q}&cursor={q}&limit={q}",
                    "/api/v1/preemptions?format=csv&clusterQueue={q}&namespace={q}&since={q}",
                    "/api/v1/hotswaps?cluster={q}&workloadUid={q}&cursor={q}&limit={q}",
                    "/api/v1/clusterqueues/{p}/pendingworkloads?offset={q}&limit={q}",
                    "/api/v1/namespaces/{p}/localqueues/{p}/pendingworkloads?offset={q}&limit={q}",
                    "/api/v1/clusters/{p}", "/api/v1/clusters/{p}/nodepools", "/api/v1/resourceflavors/{p}",
                    "/api/v1/cohorts/{p}", "/api/v1/clusterqueues/{p}", "/api/v1/namespaces/{p}/localqueues",
                    "/api/v1/priorityclasses/{p}", "/api/v1/workloadpriorityclasses/{p}", "/api/v1/namespaces/{p}",
                    "/api/v1/agent/clusters/{p}/commands?after={q}&waitSeconds=0",
                    "/api/v1/agent/clusters/sim/commands?after={q}&waitSeconds={w}",
                    "/api/v1/manifests?dryRun={q}");
            for (int i = 0; i < HostileInput.tries(120); i++) {
                String template = input.pick(templates);
                String path = fill(template, input);
                boolean agent = path.startsWith("/api/v1/agent/");
                Map<String, String> headers = agent ? Map.of("Authorization", "Bearer " + TestIdentity.agentToken("sim"))
                        : Map.of();
                if (template.endsWith("{p}") && !agent && input.nextInt(4) == 0) {
                    request("DELETE", path, headers, null, null);
                } else if (template.startsWith("/api/v1/manifests")) {
                    request("POST", path, headers, "application/yaml", Manifests.queue("cq", "4", "LowerPriority"));
                } else {
                    request("GET", path, headers, null, null);
                }
            }
        }
    }

    @Test
    void hostileJsonBodiesOfTheAgentProtocol() {
        try (HostileInput input = new HostileInput("agent")) {
            Map<String, String> agent = Map.of("Authorization", "Bearer " + TestIdentity.agentToken("sim"));
            List<Map<String, Object>> bodies = HostileInput.documents("""
                    {cluster: sim, agentId: a1, leader: true, sequence: 1, sentAt: "2026-01-01T00:00:00Z", kind: FULL,
                     nodePools: [{name: p0, accelerator: tpu-v6e-slice, topology: 4x4, state: HEALTHY, reasons: [],
                                  nodes: [{name: n0, state: HEALTHY, reasons: [], chipCapacity: 4, chipAllocatable: 4}]}],
                     removedNodePools: [], workloads: [{workloadUid: "00000000-0000-0000-0000-000000000001", namespace: team-a,
                       jobSetName: x, phase: RUNNING, podsPending: 0, podsRunning: 1, podsSucceeded: 0, podsFailed: 0,
                       nodes: [n0], nodePools: [p0]}], submissions: []}
                    ---
                    {commandId: 1, status: SUCCEEDED, message: done, eviction: {podsEvicted: 1,
                     disruptionBudgetRejections: 0, blockedPods: []}, agentId: a1, at: "2026-01-01T00:00:00Z"}
                    """);
            for (int i = 0; i < HostileInput.tries(60); i++) {
                boolean report = input.nextInt(2) == 0;
                Map<String, Object> body = input.mutate(bodies.get(report ? 0 : 1));
                String path = report ? "/api/v1/agent/clusters/sim/reports"
                        : "/api/v1/agent/clusters/sim/commands/" + segment(String.valueOf(body.get("commandId")))
                        + "/result";
                String json = input.nextInt(6) == 0 ? input.malformedYaml(HostileInput.json(List.of(body)))
                        : HostileInput.json(List.of(body));
                request("POST", path, agent, "application/json", json);
            }
        }
    }

    private static String fill(String template, HostileInput input) {
        StringBuilder path = new StringBuilder();
        String rest = template;
        int at;
        while ((at = rest.indexOf('{')) >= 0) {
            path.append(rest, 0, at);
            char placeholder = rest.charAt(at + 1);
            String value = switch (placeholder) {
                case 'w' -> input.pick(List.of("-1", "0", "x", "1e3", "99999999999", "", "0x10", "' OR 1=1"));
                default -> input.nextInt(5) == 0 ? String.valueOf(input.number()) : input.string();
            };
            path.append(segment(value));
            rest = rest.substring(at + 3);
        }
        return path.append(rest).toString();
    }

    /** HTTP forbids control characters in a header value; the client would refuse to send them. */
    private static String printable(String value) {
        return value.replaceAll("[^\\x20-\\x7e]", "x");
    }

    private void request(String method, String path, Map<String, String> headers, String contentType, String body) {
        DatabaseCleaner.Observed<Response> observed = DatabaseCleaner.observe(jdbc, loop,
                () -> api.send(method, path, headers, contentType, body));
        Response r = observed.result();
        requests++;
        statuses.merge(r.status(), 1, Integer::sum);
        String what = method + " " + abbreviate(path) + " [" + contentType + "] " + abbreviate(body) + " -> "
                + r.status() + " " + abbreviate(r.body());
        if (r.status() >= 500) {
            failures.add("5xx: " + what);
        }
        if (r.body().contains("Exception") || r.body().contains("\tat ") || r.body().contains("dev.platform.")) {
            failures.add("stack trace or class name: " + what);
        }
        if (r.headers().firstValue("x-injected").isPresent() || r.headers().firstValue("set-cookie").isPresent()) {
            failures.add("injected response header: " + what + " " + r.headers());
        }
        if (r.status() >= 400 && !r.contentType().startsWith("application/problem+json")) {
            failures.add("not a problem: " + r.contentType() + " " + what);
        }
        boolean mustNotChange = r.status() >= 400 || (method.equals("GET") && !path.startsWith("/api/v1/agent/"));
        if (mustNotChange && observed.changedRows()) {
            failures.add("changed the database: " + what);
        }
    }

    private static String abbreviate(String text) {
        if (text == null) {
            return "";
        }
        return text.length() <= 300 ? text : text.substring(0, 300) + "...(" + text.length() + " chars)";
    }
}
