package dev.platform.scheduler.security;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.platform.scheduler.identity.AgentTokens;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.SimulatedAgent;
import dev.platform.scheduler.testsupport.TestIdentity;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two real agents on two simulated clusters, one with a configured token, one with a token issued
 * through the API: each acts for its own cluster only, and a revoked token stops at the next call.
 */
class AgentTokensTest extends PlatformApplicationTest {

    @Test
    void anAgentTokenActsForItsOwnClusterOnlyAndARevokedOneNotAtAll() {
        JsonNode issued = api.postJson("/api/v1/clusters/edge-1/agent-tokens", "{\"description\": \"edge rack\"}").json();
        String edgeToken = issued.get("token").asString();
        try (SimulatedAgent sim = SimulatedAgent.start(port, api);
             SimulatedAgent edge = SimulatedAgent.startUnchecked(port, "edge-1", edgeToken)) {
            await().atMost(Duration.ofSeconds(20)).until(() -> api.get("/api/v1/clusters/edge-1/nodepools"),
                    pools -> pools.status() == 200 && pools.json().get("items").size() == 5);
            JsonNode edgePools = pools("edge-1");

            PlatformClient simsToken = api.as(TestIdentity.agentToken("sim"));
            String report = "{\"cluster\": \"edge-1\", \"agentId\": \"impostor\", \"leader\": true, \"sequence\": 999,"
                    + " \"kind\": \"FULL\"}";
            assertThat(simsToken.postJson("/api/v1/agent/clusters/edge-1/reports", report).status()).isEqualTo(403);
            assertThat(simsToken.get("/api/v1/agent/clusters/edge-1/commands?waitSeconds=0").status()).isEqualTo(403);
            assertThat(simsToken.postJson("/api/v1/agent/clusters/edge-1/commands/1/result",
                    "{\"commandId\": 1, \"status\": \"SUCCEEDED\", \"agentId\": \"impostor\"}").status()).isEqualTo(403);
            assertThat(pools("edge-1")).as("the refused FULL report removed nothing").isEqualTo(edgePools);
            assertThat(api.as(edgeToken).get("/api/v1/agent/clusters/sim/commands?waitSeconds=0").status())
                    .isEqualTo(403);
            assertThat(api.as(edgeToken).get("/api/v1/me").status()).as("an agent token is no user's").isEqualTo(401);

            assertThat(api.get("/api/v1/clusters/edge-1/agent-tokens").json().at("/items/0/description").asString())
                    .isEqualTo("edge rack");
            assertThat(api.delete("/api/v1/clusters/edge-1/agent-tokens/" + issued.get("id").asLong()).status())
                    .isEqualTo(204);
            assertThat(api.as(edgeToken).get("/api/v1/agent/clusters/edge-1/commands?waitSeconds=0").status())
                    .isEqualTo(401);
            assertThat(jdbc.sql("SELECT action || ' ' || detail FROM access_audit ORDER BY id").query(String.class).list())
                    .containsExactly("AgentTokenCreated cluster=edge-1", "AgentTokenRevoked cluster=edge-1");
        }
    }

    private JsonNode pools(String cluster) {
        return api.get("/api/v1/clusters/" + cluster + "/nodepools").json().get("items");
    }

    @Test
    void anIssuedAgentTokenExpiresAfterAYearUnlessAskedOtherwiseAndIsRefusedOnceExpired() {
        JsonNode lasting = api.postJson("/api/v1/clusters/edge-2/agent-tokens", "{\"description\": \"rack\"}").json();
        JsonNode shortLived = api.postJson("/api/v1/clusters/edge-2/agent-tokens",
                "{\"description\": \"trial\", \"expiresInSeconds\": 3600}").json();

        Instant created = Instant.parse(lasting.get("createdAt").asString());
        assertThat(Instant.parse(lasting.get("expiresAt").asString())).isEqualTo(created.plus(Duration.ofDays(365)));
        assertThat(Duration.between(Instant.parse(shortLived.get("createdAt").asString()),
                Instant.parse(shortLived.get("expiresAt").asString()))).isEqualTo(Duration.ofHours(1));
        assertThat(api.postJson("/api/v1/clusters/edge-2/agent-tokens", "{\"expiresInSeconds\": 40000000}").status())
                .as("longer than any token may live").isEqualTo(422);

        String secret = shortLived.get("token").asString();
        assertThat(api.as(secret).get("/api/v1/agent/clusters/edge-2/commands?waitSeconds=0").status()).isEqualTo(200);
        jdbc.sql("UPDATE agent_token SET created_at = now() - interval '2 hours', expires_at = now() - interval '1 second' WHERE id = ?")
                .param(shortLived.get("id").asLong()).update();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
                api.as(secret).get("/api/v1/agent/clusters/edge-2/commands?waitSeconds=0").status()).isEqualTo(401));
    }

    /** The rotation path: an agent token close to its expiry says so in the log, naming what to do, at most hourly. */
    @Test
    void usingAnAgentTokenCloseToItsExpiryWarnsOnceNamingTheRotation() {
        String closeToExpiry = api.postJson("/api/v1/clusters/edge-3/agent-tokens",
                "{\"description\": \"old\", \"expiresInSeconds\": 259200}").json().get("token").asString();
        String lasting = api.postJson("/api/v1/clusters/edge-3/agent-tokens", "{\"description\": \"new\"}").json()
                .get("token").asString();
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        Logger logger = (Logger) LoggerFactory.getLogger(AgentTokens.class);
        logger.addAppender(logged);
        try {
            assertThat(api.as(lasting).get("/api/v1/agent/clusters/edge-3/commands?waitSeconds=0").status()).isEqualTo(200);
            assertThat(logged.list).as("a year ahead: nothing to say").isEmpty();
            for (int i = 0; i < 3; i++) {
                assertThat(api.as(closeToExpiry).get("/api/v1/agent/clusters/edge-3/commands?waitSeconds=0").status())
                        .isEqualTo(200);
            }
        } finally {
            logger.detachAppender(logged);
        }

        assertThat(logged.list).singleElement().satisfies(warning -> {
            assertThat(warning.getLevel()).isEqualTo(Level.WARN);
            assertThat(warning.getFormattedMessage()).contains("of cluster edge-3 expires at",
                    "POST /api/v1/clusters/edge-3/agent-tokens", "platform.agent.token", "revoke this one");
        });
    }
}
