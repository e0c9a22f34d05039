package dev.platform.scheduler.identity;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.ClusterRole;
import dev.platform.api.identity.TeamRole;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Who each API token presented lately acts as, kept on this replica for at most {@code ttl}: a request
 * within that time of the token's last lookup is authenticated without PostgreSQL. The bound holds on
 * every replica without telling the others anything, since each entry is looked up again once it is
 * {@code ttl} old: a token revoked, a user deleted, a membership or a namespace moved elsewhere takes
 * effect within {@code ttl} everywhere, and on the next request on the replica that made the change
 * (which forgets every entry once its transaction commits). The token's expiry is checked on every
 * request against the expiry time kept with the entry.
 */
@Component
@EnableConfigurationProperties(AuthenticatedTokens.Settings.class)
class AuthenticatedTokens {

    /** The longest a revocation, a deleted user or a changed membership may take to bite on any replica. */
    static final Duration MAX_TTL = Duration.ofSeconds(2);

    /** Beyond this many tokens, entries past their time are dropped, and all of them if that is not enough. */
    private static final int MAX_ENTRIES = 50_000;

    /**
     * {@code platform.security.api-tokens.*}.
     *
     * @param cacheTtl how long an authenticated API token is taken as looked up (at most 2s; 0 looks every
     *                 request up)
     */
    @ConfigurationProperties("platform.security.api-tokens")
    record Settings(@DefaultValue("1s") Duration cacheTtl) {
        Settings {
            if (cacheTtl.isNegative() || cacheTtl.compareTo(MAX_TTL) > 0) {
                throw new IllegalStateException("platform.security.api-tokens.cache-ttl is " + cacheTtl
                        + "; it bounds how long a revoked token or a removed membership still acts, and must be"
                        + " between 0s and " + MAX_TTL.toSeconds() + "s");
            }
        }
    }

    /** A token's caller as looked up at {@code lookedUpAtNanos}, in cache generation {@code generation}. */
    private record Entry(Caller caller, Instant expiresAt, long lookedUpAtNanos, long generation) {
    }

    private final JdbcClient jdbc;
    private final Clock clock;
    private final long ttlNanos;
    private final LongSupplier nanoTime;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    /** Moved by {@link #forgetAll()}: an entry of an earlier generation counts as absent, even one stored late. */
    private final AtomicLong generation = new AtomicLong();

    @Autowired
    AuthenticatedTokens(JdbcClient jdbc, Clock clock, Settings settings) {
        this(jdbc, clock, settings, System::nanoTime);
    }

    /** @param nanoTime the monotonic time an entry's age is measured in */
    AuthenticatedTokens(JdbcClient jdbc, Clock clock, Settings settings, LongSupplier nanoTime) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.ttlNanos = settings.cacheTtl().toNanos();
        this.nanoTime = nanoTime;
    }

    /** The caller the token with this hash acts as now; empty when it is unknown, revoked or expired. */
    Optional<Caller> caller(byte[] tokenHash) {
        String key = HexFormat.of().formatHex(tokenHash);
        long now = nanoTime.getAsLong();
        Entry entry = entries.get(key);
        if (entry == null || now - entry.lookedUpAtNanos() >= ttlNanos || entry.generation() != generation.get()) {
            long lookingUpIn = generation.get();
            entry = lookUp(tokenHash, now, lookingUpIn).orElse(null);
            if (entry == null) {
                entries.remove(key);
                return Optional.empty();
            }
            remember(key, entry);
        }
        Instant expiresAt = entry.expiresAt();
        return expiresAt == null || clock.instant().isBefore(expiresAt) ? Optional.of(entry.caller()) : Optional.empty();
    }

    /**
     * Forgets every token once the current transaction commits (at once outside one), so a change of identity
     * made on this replica bites on its next request; other replicas see it when their entries' time is up.
     */
    void forgetAfterCommit() {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    forgetAll();
                }
            });
        } else {
            forgetAll();
        }
    }

    private void forgetAll() {
        generation.incrementAndGet();
        entries.clear();
    }

    private void remember(String key, Entry entry) {
        if (entries.size() >= MAX_ENTRIES) {
            long now = nanoTime.getAsLong();
            entries.values().removeIf(e -> now - e.lookedUpAtNanos() >= ttlNanos);
            if (entries.size() >= MAX_ENTRIES) {
                entries.clear();
            }
        }
        entries.put(key, entry);
    }

    /** Token, user and Team memberships with their namespaces, in one statement. */
    private Optional<Entry> lookUp(byte[] tokenHash, long now, long inGeneration) {
        List<Row> rows = jdbc.sql("""
                        SELECT t.expires_at, u.name, u.cluster_role, m.team, m.role, n.namespace
                        FROM api_token t
                        JOIN app_user u ON u.name = t.user_name
                        LEFT JOIN team_member m ON m.user_name = u.name
                        LEFT JOIN team_namespace n ON n.team = m.team
                        WHERE t.token_hash = ? AND t.revoked_at IS NULL""")
                .param(tokenHash)
                .query((rs, i) -> {
                    Timestamp expiresAt = rs.getTimestamp(1);
                    String role = rs.getString(3);
                    String teamRole = rs.getString(5);
                    return new Row(expiresAt == null ? null : expiresAt.toInstant(), rs.getString(2),
                            role == null ? null : ClusterRole.valueOf(role), rs.getString(4),
                            teamRole == null ? null : TeamRole.valueOf(teamRole), rs.getString(6));
                })
                .list();
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Row first = rows.get(0);
        List<MembershipRow> memberships = new ArrayList<>();
        rows.stream().filter(r -> r.team() != null)
                .forEach(r -> memberships.add(new MembershipRow(r.team(), r.teamRole(), r.namespace())));
        Caller caller = CallerDirectory.caller(first.user(), first.clusterRole(), memberships);
        return Optional.of(new Entry(caller, first.expiresAt(), now, inGeneration));
    }

    private record Row(Instant expiresAt, String user, ClusterRole clusterRole, String team, TeamRole teamRole,
                       String namespace) {
    }
}
