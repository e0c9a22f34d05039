package dev.platform.scheduler.identity;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.ClusterRole;
import dev.platform.api.identity.UserNames;
import dev.platform.scheduler.refusal.Refusal;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.time.Clock;
import java.util.List;
import java.util.Map;

/** Creating, listing and deleting users; every change is in the access audit. */
@Service
public class Users {

    /** Long enough to resist guessing at the login throttle's pace; short enough to type. */
    static final int MIN_PASSWORD_LENGTH = 12;

    private final UserAccountRepository users;
    private final PasswordEncoder passwords;
    private final AccessAudit audit;
    private final FindByIndexNameSessionRepository<?> sessions;
    private final AuthenticatedTokens authenticated;
    private final Clock clock;

    Users(UserAccountRepository users, PasswordEncoder passwords, AccessAudit audit,
          FindByIndexNameSessionRepository<?> sessions, AuthenticatedTokens authenticated, Clock clock) {
        this.authenticated = authenticated;
        this.users = users;
        this.passwords = passwords;
        this.audit = audit;
        this.sessions = sessions;
        this.clock = clock;
    }

    /**
     * @param password null for a user who logs in only through the identity provider (or uses tokens)
     */
    @Transactional
    public UserAccount create(String name, String password, ClusterRole clusterRole, Caller actor) {
        UserNames.problem(name).ifPresent(problem -> {
            throw invalid("name", problem);
        });
        if (password != null && password.length() < MIN_PASSWORD_LENGTH) {
            throw invalid("password", "a password has at least " + MIN_PASSWORD_LENGTH + " characters");
        }
        if (users.existsById(name)) {
            throw Refusal.conflict("user \"" + name + "\" already exists", List.of());
        }
        UserAccount user = users.save(new UserAccount(name, password == null ? null : passwords.encode(password),
                clusterRole, clock.instant(), actor.name()));
        audit.record(actor.name(), AccessAuditEntry.Action.UserCreated, name,
                clusterRole == null ? "" : "clusterRole=" + clusterRole);
        return user;
    }

    /** Gives an existing user a new password (the demo's users get fresh ones at each start). */
    @Transactional
    public void setPassword(String name, String password, Caller actor) {
        if (password.length() < MIN_PASSWORD_LENGTH) {
            throw invalid("password", "a password has at least " + MIN_PASSWORD_LENGTH + " characters");
        }
        find(name).changePassword(passwords.encode(password));
        audit.record(actor.name(), AccessAuditEntry.Action.PasswordChanged, name, "");
    }

    @Transactional(readOnly = true)
    public List<UserAccount> list() {
        return users.findAllByOrderByName();
    }

    @Transactional(readOnly = true)
    public UserAccount find(String name) {
        return users.findById(name).orElseThrow(() -> Refusal.notFound("User", name));
    }

    /**
     * Deletes a user with their tokens and ends their console sessions. The last Admin stays: without one,
     * nobody could manage the platform.
     */
    @Transactional
    public void delete(String name, Caller actor) {
        UserAccount user = find(name);
        if (user.clusterRole() == ClusterRole.Admin && users.findAllByClusterRole(ClusterRole.Admin).size() == 1) {
            throw Refusal.conflict("\"" + name + "\" is the last Admin; create another Admin first", List.of());
        }
        users.delete(user);
        authenticated.forgetAfterCommit();
        sessions.findByPrincipalName(name).keySet().forEach(sessions::deleteById);
        audit.record(actor.name(), AccessAuditEntry.Action.UserDeleted, name, "");
    }

    private static Refusal invalid(String field, String message) {
        return new Refusal(Refusal.Kind.Invalid, "Invalid user", message,
                List.of(Map.of("document", 0, "path", field, "message", message)));
    }
}
