package dev.platform.scheduler.security;

import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A refusal says what is actually wrong: an unknown path, an unsupported credential, or the caller's roles. */
class RefusalMessagesTest extends PlatformApplicationTest {

    @Test
    void anUnknownPathIsNotFoundEvenForAnAdmin() {
        Response missing = api.get("/api/v1/no-such-endpoint");

        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.json().get("detail").asString())
                .isEqualTo("no endpoint serves GET /api/v1/no-such-endpoint; the API is described at /v3/api-docs");
    }

    @Test
    void aMethodNoEndpointServesOnAKnownPathIsNotFoundToo() {
        Response put = api.send("PUT", "/api/v1/clusterqueues", Map.of(), "application/json", "{}");

        assertThat(put.status()).isEqualTo(404);
        assertThat(put.json().get("detail").asString()).startsWith("no endpoint serves PUT /api/v1/clusterqueues");
        assertThat(api.get("/api/v1/clusterqueues").status()).isEqualTo(200);
    }

    @Test
    void basicAuthenticationIsNamedAsTheUnsupportedScheme() {
        Response basic = api.anonymous().send("GET", "/api/v1/clusterqueues",
                Map.of("Authorization", "Basic YWxpY2U6c2VjcmV0"), null, null);

        assertThat(basic.status()).isEqualTo(401);
        assertThat(basic.json().get("detail").asString())
                .startsWith("the Authorization scheme Basic is not supported: send Authorization: Bearer <token>")
                .doesNotContain("bearer token is not valid");
    }

    @Test
    void aForgedBearerTokenIsStillCalledInvalid() {
        Response forged = api.as("plt_not-a-real-token").get("/api/v1/clusterqueues");

        assertThat(forged.status()).isEqualTo(401);
        assertThat(forged.json().get("detail").asString()).startsWith("the bearer token is not valid here");
    }
}
