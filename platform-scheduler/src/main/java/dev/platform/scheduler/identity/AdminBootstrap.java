package dev.platform.scheduler.identity;

import dev.platform.api.identity.ClusterRole;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.Optional;

/**
 * The first Admin. With {@code PLATFORM_BOOTSTRAP_ADMIN_TOKEN} set, an Admin API token with that
 * value exists (for user {@code admin}, created when missing; nothing changes on later starts).
 * Without it, when no Admin exists yet, user {@code admin} is created with a random password that is
 * printed once in the log, unless the README demo ({@code platform.demo.enabled}) is on: it prints
 * logins of its own, and a second banner would only mislead. There is no default password anywhere.
 */
@Component
public class AdminBootstrap implements ApplicationRunner {

    static final String ACTOR = "bootstrap";
    static final String ADMIN = "admin";
    /** Serialises replicas starting together, so exactly one creates the first Admin. */
    private static final long BOOTSTRAP_LOCK_KEY = 0x626f6f7473747261L;
    private static final Logger log = LoggerFactory.getLogger(AdminBootstrap.class);

    private final UserAccountRepository users;
    private final ApiTokens tokens;
    private final PasswordEncoder passwords;
    private final TransactionTemplate transactions;
    private final JdbcClient jdbc;
    private final Clock clock;
    private final String bootstrapToken;
    private final boolean demo;

    AdminBootstrap(UserAccountRepository users, ApiTokens tokens, PasswordEncoder passwords,
                   TransactionTemplate transactions, JdbcClient jdbc, Clock clock,
                   @Value("${PLATFORM_BOOTSTRAP_ADMIN_TOKEN:}") String bootstrapToken,
                   @Value("${platform.demo.enabled:false}") boolean demo) {
        if (!bootstrapToken.isBlank() && bootstrapToken.strip().length() < 16) {
            throw new IllegalStateException("PLATFORM_BOOTSTRAP_ADMIN_TOKEN must be at least 16 characters long");
        }
        this.users = users;
        this.tokens = tokens;
        this.passwords = passwords;
        this.transactions = transactions;
        this.jdbc = jdbc;
        this.clock = clock;
        this.bootstrapToken = bootstrapToken.strip();
        this.demo = demo;
    }

    @Override
    public void run(ApplicationArguments args) {
        ensureAdmin().ifPresent(password -> log.warn("""

                ============================================================================
                No Admin existed: created user '{}' with the password below (shown once).
                    {}
                Log into the console with it, or set PLATFORM_BOOTSTRAP_ADMIN_TOKEN to have an
                Admin API token of your choosing at start.
                ============================================================================""", ADMIN, password));
    }

    /**
     * Makes sure an Admin exists as this start's settings ask.
     *
     * @return the generated password when user {@code admin} was created with one now
     */
    public Optional<String> ensureAdmin() {
        return transactions.execute(status -> {
            jdbc.sql("SELECT pg_advisory_xact_lock(?)").param(BOOTSTRAP_LOCK_KEY).query().singleValue();
            if (!bootstrapToken.isEmpty()) {
                UserAccount admin = users.findById(ADMIN).orElseGet(() -> users.save(
                        new UserAccount(ADMIN, null, ClusterRole.Admin, clock.instant(), ACTOR)));
                if (admin.clusterRole() != ClusterRole.Admin) {
                    throw new IllegalStateException("PLATFORM_BOOTSTRAP_ADMIN_TOKEN: user '" + ADMIN
                            + "' exists without the Admin role; the bootstrap token would not be an Admin token");
                }
                if (tokens.ensureBootstrapToken(bootstrapToken, admin)) {
                    log.info("created the Admin API token given by PLATFORM_BOOTSTRAP_ADMIN_TOKEN (user '{}')", ADMIN);
                }
                return Optional.<String>empty();
            }
            if (demo || users.existsByClusterRole(ClusterRole.Admin)) {
                return Optional.<String>empty();
            }
            if (users.existsById(ADMIN)) {
                log.warn("no Admin exists and user '{}' is taken by a user without the Admin role: set"
                        + " PLATFORM_BOOTSTRAP_ADMIN_TOKEN to get an Admin token", ADMIN);
                return Optional.<String>empty();
            }
            String password = randomPassword();
            users.save(new UserAccount(ADMIN, passwords.encode(password), ClusterRole.Admin, clock.instant(), ACTOR));
            return Optional.of(password);
        });
    }

    /** 18 random bytes: 24 characters a person can copy from a log. */
    public static String randomPassword() {
        byte[] bytes = new byte[18];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
