package dev.platform.scheduler.identity;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.ClusterRole;
import dev.platform.api.identity.TeamRole;
import dev.platform.scheduler.testsupport.StoreSliceTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The token cache on real PostgreSQL, with its monotonic time and the clock in the test's hands: what it
 * keeps, for how long, and what it checks on every request all the same.
 */
@StoreSliceTest
class AuthenticatedTokensTest {

    private static final Duration TTL = Duration.ofSeconds(1);
    private static final byte[] HASH = TokenSecrets.hash("plt_cached-token-of-bob");

    @Autowired
    JdbcClient jdbc;

    private final AtomicLong nanos = new AtomicLong();
    private Instant now = StoreSliceTest.NOW;
    private AuthenticatedTokens tokens;

    @BeforeEach
    void bobWithATokenInTeamVision() {
        tokens = new AuthenticatedTokens(jdbc, new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now;
            }
        }, new AuthenticatedTokens.Settings(TTL), nanos::get);
        jdbc.sql("INSERT INTO app_user (name, created_by) VALUES ('bob', 'test')").update();
        jdbc.sql("INSERT INTO api_token (token_hash, user_name, created_at, created_by, expires_at) VALUES (?, 'bob', ?, 'test', ?)")
                .params(HASH, Timestamp.from(now.minusSeconds(60)), Timestamp.from(now.plusSeconds(60))).update();
        jdbc.sql("INSERT INTO team (name) VALUES ('vision')").update();
        jdbc.sql("INSERT INTO team_namespace (team, namespace) VALUES ('vision', 'vision-train'), ('vision', 'vision-eval')")
                .update();
        jdbc.sql("INSERT INTO team_member (team, user_name, role) VALUES ('vision', 'bob', 'TeamLead')").update();
    }

    @Test
    void oneLookUpReadsTheTokenItsUserAndEveryMembershipWithItsNamespaces() {
        Caller bob = tokens.caller(HASH).orElseThrow();

        assertThat(bob.name()).isEqualTo("bob");
        assertThat(bob.clusterRole()).isNull();
        assertThat(bob.teams()).containsExactly(
                new Caller.Membership("vision", TeamRole.TeamLead, Set.of("vision-train", "vision-eval")));
    }

    @Test
    void aTokenRevokedElsewhereActsUntilItsEntryIsAsOldAsTheTtlAndNotAfter() {
        assertThat(tokens.caller(HASH)).isPresent();
        jdbc.sql("UPDATE api_token SET revoked_at = now(), revoked_by = 'another-replica'").update();

        nanos.addAndGet(TTL.toNanos() - 1);
        assertThat(tokens.caller(HASH)).as("looked up less than the ttl ago").isPresent();
        nanos.addAndGet(1);
        assertThat(tokens.caller(HASH)).as("looked up the ttl ago").isEmpty();
    }

    @Test
    void aRemovedMembershipAndAChangedRoleBiteOnceTheEntryIsTheTtlOld() {
        assertThat(tokens.caller(HASH).orElseThrow().teams()).hasSize(1);
        jdbc.sql("DELETE FROM team_member").update();
        jdbc.sql("UPDATE app_user SET cluster_role = 'Ops'").update();

        nanos.addAndGet(TTL.toNanos());
        Caller bob = tokens.caller(HASH).orElseThrow();
        assertThat(bob.teams()).isEmpty();
        assertThat(bob.clusterRole()).isEqualTo(ClusterRole.Ops);
    }

    @Test
    void aCachedTokenPastItsExpiryIsRefusedAtOnce() {
        assertThat(tokens.caller(HASH)).isPresent();

        now = now.plusSeconds(60);
        assertThat(tokens.caller(HASH)).isEmpty();
    }

    @Test
    void aTtlBeyondTheBoundIsRefusedAtStart() {
        assertThatThrownBy(() -> new AuthenticatedTokens.Settings(Duration.ofSeconds(3)))
                .hasMessageContaining("platform.security.api-tokens.cache-ttl").hasMessageContaining("2s");
    }
}
