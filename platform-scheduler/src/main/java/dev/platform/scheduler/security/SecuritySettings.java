package dev.platform.scheduler.security;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.Map;

/**
 * Settings of authentication ({@code platform.security.*}; the submission rate limit is
 * {@code platform.security.submissions.*}).
 *
 * @param oidc  how the claims of an identity provider's tokens name the user and map groups to roles
 * @param login the console login throttle
 */
@ConfigurationProperties("platform.security")
public record SecuritySettings(@DefaultValue Oidc oidc, @DefaultValue Login login) {

    /**
     * @param userNameClaim the claim holding the user name ({@code sub} when the token lacks it)
     * @param groupsClaim   the claim holding the user's groups (a list of strings)
     * @param groups        a group's role: {@code Admin}, {@code Ops}, or {@code <team>:TeamLead} /
     *                      {@code <team>:Engineer} for a membership in a Team object of that name
     */
    public record Oidc(@DefaultValue("preferred_username") String userNameClaim,
                       @DefaultValue("groups") String groupsClaim,
                       Map<String, String> groups) {
        public Oidc {
            groups = groups == null ? Map.of() : Map.copyOf(groups);
        }
    }

    /**
     * After {@code maxFailures} failed logins in a row for one user name from one address, logins for that
     * pair are refused for {@code lockout}, doubling with each further failure up to {@code maxLockout}.
     */
    public record Login(@DefaultValue("5") int maxFailures, @DefaultValue("30s") Duration lockout,
                        @DefaultValue("15m") Duration maxLockout) {
    }
}
