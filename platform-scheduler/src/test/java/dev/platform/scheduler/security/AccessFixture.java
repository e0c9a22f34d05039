package dev.platform.scheduler.security;

import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodePoolReport;
import dev.platform.api.agent.NodeReport;
import dev.platform.api.agent.ReportKind;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.TestIdentity;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two teams sharing a platform, as the authorization tests need them: team {@code vision} (namespace
 * {@code vision-train}, queue {@code vision-cq}; Engineer {@code eng-vision}, TeamLead {@code lead-vision})
 * and team {@code nlp} (namespace {@code nlp-train}, queue {@code nlp-cq}; Engineer {@code eng-nlp}), both
 * also queueing in {@code shared-cq}; an Ops user; workloads of both teams, a preemption between them,
 * a connected cluster; and a client for every kind of caller.
 */
final class AccessFixture {

    /** Every kind of caller the matrix asks about. */
    enum Who {
        ANONYMOUS("anonymous"),
        WRONG_TOKEN("wrong token"),
        EXPIRED_TOKEN("expired token"),
        REVOKED_TOKEN("revoked token"),
        AGENT("agent token, own cluster"),
        OTHER_AGENT("agent token, other cluster"),
        ENGINEER("Engineer of the owning team"),
        OTHER_ENGINEER("Engineer of another team"),
        LEAD("TeamLead"),
        OPS("Ops"),
        ADMIN("Admin");

        final String title;

        Who(String title) {
            this.title = title;
        }

        boolean isUser() {
            return ordinal() >= ENGINEER.ordinal();
        }
    }

    /** Names of team nlp's objects: none may appear in what a vision member is shown. */
    static final List<String> NLP_NAMES = List.of("nlp-train", "nlp-job", "nlp-cq", "eng-nlp", "nlp-pending");
    /** And the reverse. */
    static final List<String> VISION_NAMES = List.of("vision-train", "vision-job", "vision-cq", "eng-vision",
            "lead-vision", "vision-pending");

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PASSWORD = "a-password-long-enough";

    private final PlatformClient admin;
    private final JdbcClient jdbc;
    private final Map<Who, PlatformClient> clients = new EnumMap<>(Who.class);
    private final AtomicInteger sequence = new AtomicInteger();

    AccessFixture(PlatformClient admin, JdbcClient jdbc) {
        this.admin = admin;
        this.jdbc = jdbc;
    }

    AccessFixture create() {
        apply("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: default}
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Cohort
                metadata: {name: org}
                ---
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: high}
                value: 1000
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: WorkloadPriorityClass
                metadata: {name: batch}
                value: 10
                """
                + clusterQueue("vision-cq", "org", "8") + clusterQueue("nlp-cq", "org", "8") + clusterQueue("shared-cq", null, "1")
                + localQueue("vision-train", "lq", "vision-cq") + localQueue("nlp-train", "lq", "nlp-cq")
                + localQueue("vision-train", "shared", "shared-cq") + localQueue("nlp-train", "shared", "shared-cq")
                + namespace("vision-train") + namespace("nlp-train")
                + """
                ---
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: vision}
                spec:
                  namespaces: [vision-train]
                  members: [{user: eng-vision, role: Engineer}, {user: lead-vision, role: TeamLead}]
                ---
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: nlp}
                spec:
                  namespaces: [nlp-train]
                  members: [{user: eng-nlp, role: Engineer}]
                """);
        clients.put(Who.ENGINEER, admin.as(userToken("eng-vision", null)));
        clients.put(Who.OTHER_ENGINEER, admin.as(userToken("eng-nlp", null)));
        clients.put(Who.LEAD, admin.as(userToken("lead-vision", null)));
        clients.put(Who.OPS, admin.as(userToken("ops", "Ops")));
        clients.put(Who.ADMIN, admin);
        clients.put(Who.ANONYMOUS, admin.anonymous());
        clients.put(Who.WRONG_TOKEN, admin.as("plt_not-a-token-of-this-platform"));
        clients.put(Who.EXPIRED_TOKEN, admin.as(expiredToken()));
        clients.put(Who.REVOKED_TOKEN, admin.as(revokedToken()));
        clients.put(Who.AGENT, admin.as(TestIdentity.agentToken("prod-1")));
        clients.put(Who.OTHER_AGENT, admin.as(TestIdentity.agentToken("prod-2")));

        submit("vision-train", "vision-job", "lq", "1");
        submit("nlp-train", "nlp-job", "lq", "1");
        // One chip of shared-cq: the first holds it, the other team's waits behind it.
        submit("vision-train", "vision-pending-0", "shared", "1");
        submit("nlp-train", "nlp-pending", "shared", "1");
        submit("vision-train", "vision-pending", "shared", "1");
        recordPreemption();
        AgentReport report = new AgentReport("prod-1", "agent-1", true, 1, Instant.now(), ReportKind.FULL,
                List.of(new NodePoolReport("pool-0", "tpu-v6e-slice", "4x4", HealthState.HEALTHY, List.of(),
                        List.of(new NodeReport("pool-0-node-0", HealthState.HEALTHY, List.of(), 4, 4, null)))),
                List.of(), List.of(), List.of());
        assertThat(client(Who.AGENT).postJson("/api/v1/agent/clusters/prod-1/reports", JSON.writeValueAsString(report))
                .status()).isEqualTo(200);
        return this;
    }

    PlatformClient client(Who who) {
        return clients.get(who);
    }

    /** A name no earlier call of this fixture returned, for objects each request creates. */
    String unique(String prefix) {
        return prefix + "-" + sequence.incrementAndGet();
    }

    /** Submits a one-pod Job as the Admin. */
    String submit(String namespace, String name, String queue, String cpu) {
        PlatformClient.Response submitted = admin.postYaml("/api/v1/namespaces/" + namespace + "/workloads",
                Manifests.job(name, queue, cpu, null));
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
        return name;
    }

    void apply(String yaml) {
        PlatformClient.Response applied = admin.postYaml("/api/v1/manifests", yaml);
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
    }

    /** A new user with an API token: the token. */
    String userToken(String user, String clusterRole) {
        createUser(user, clusterRole);
        return token(user);
    }

    void createUser(String user, String clusterRole) {
        PlatformClient.Response created = admin.postJson("/api/v1/users", "{\"name\": \"" + user + "\", \"password\": \""
                + PASSWORD + "\", \"clusterRole\": " + (clusterRole == null ? "null" : "\"" + clusterRole + "\"") + "}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
    }

    /** An API token for {@code user} issued by the Admin: the secret. */
    String token(String user) {
        return issue(user).get("token").asString();
    }

    /** An API token for {@code user} issued by the Admin: its id. */
    long tokenId(String user) {
        return issue(user).get("id").asLong();
    }

    /** An agent token of cluster prod-1: its id. */
    long agentTokenId() {
        PlatformClient.Response issued = admin.postJson("/api/v1/clusters/prod-1/agent-tokens", "{}");
        assertThat(issued.status()).as(issued.body()).isEqualTo(201);
        return issued.json().get("id").asLong();
    }

    private tools.jackson.databind.JsonNode issue(String user) {
        PlatformClient.Response issued = admin.postJson("/api/v1/tokens", "{\"user\": \"" + user + "\"}");
        assertThat(issued.status()).as(issued.body()).isEqualTo(201);
        return issued.json();
    }

    private String expiredToken() {
        tools.jackson.databind.JsonNode issued = issue("ops");
        jdbc.sql("UPDATE api_token SET created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour'"
                + " WHERE id = ?").param(issued.get("id").asLong()).update();
        return issued.get("token").asString();
    }

    private String revokedToken() {
        tools.jackson.databind.JsonNode issued = issue("ops");
        assertThat(admin.delete("/api/v1/tokens/" + issued.get("id").asLong()).status()).isEqualTo(204);
        return issued.get("token").asString();
    }

    /** nlp-job preempted by vision-job, as the scheduler records it. */
    private void recordPreemption() {
        jdbc.sql("""
                INSERT INTO preemption_event (at, reason, message, preemptor_uid, preemptor_namespace, preemptor_name,
                    preemptor_cluster_queue, preemptor_priority, victim_uid, victim_namespace, victim_name,
                    victim_cluster_queue, victim_priority)
                VALUES (now(), 'InCohortReclamation', 'Preempted to accommodate a workload (UID: u) due to reclamation'
                        || ' within the cohort; preemptor path: /org/vision-cq; preemptee path: /org/nlp-cq',
                        gen_random_uuid(), 'vision-train', 'vision-job', 'vision-cq', 100,
                        gen_random_uuid(), 'nlp-train', 'nlp-job', 'nlp-cq', 0)""").update();
    }

    private static String clusterQueue(String name, String cohort, String cpu) {
        return """
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: %s}
                spec:
                  %s
                  namespaceSelector: {}
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors: [{name: default, resources: [{name: cpu, nominalQuota: "%s"}]}]
                """.formatted(name, cohort == null ? "" : "cohort: " + cohort, cpu);
    }

    private static String localQueue(String namespace, String name, String clusterQueue) {
        return """
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: %s, namespace: %s}
                spec: {clusterQueue: %s}
                """.formatted(name, namespace, clusterQueue);
    }

    private static String namespace(String name) {
        return """
                ---
                apiVersion: v1
                kind: Namespace
                metadata: {name: %s}
                """.formatted(name);
    }
}
