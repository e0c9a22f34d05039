package dev.platform.scheduler.console;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.identity.ApiToken;
import dev.platform.scheduler.identity.ApiTokens;
import dev.platform.scheduler.kubeconfig.Kubeconfigs;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.web.token.ApiTokenAccess;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.List;

/**
 * The token page's view of {@link ApiTokens} and {@link Kubeconfigs}: the caller's own tokens only, whatever their
 * roles.
 */
@Component
class ConsoleTokens implements ApiTokenAccess {

    private final ApiTokens tokens;
    private final Kubeconfigs kubeconfigs;

    ConsoleTokens(ApiTokens tokens, Kubeconfigs kubeconfigs) {
        this.tokens = tokens;
        this.kubeconfigs = kubeconfigs;
    }

    @Override
    public List<TokenLine> ownTokens(Caller caller) {
        return tokens.list(caller.name(), caller).stream().map(ConsoleTokens::line).toList();
    }

    @Override
    public CreatedToken create(Caller caller, String description, Duration lifetime) {
        try {
            ApiTokens.Issued issued = tokens.issue(null, description, lifetime, caller);
            return new CreatedToken(line(issued.token()), issued.secret());
        } catch (Refusal refusal) {
            throw new IllegalArgumentException(refusal.getMessage(), refusal);
        }
    }

    @Override
    public String kubeconfig(Caller caller, String description, Duration lifetime, String host) {
        try {
            return kubeconfigs.issue(caller, description, lifetime, host);
        } catch (Refusal refusal) {
            throw new IllegalArgumentException(refusal.getMessage(), refusal);
        }
    }

    @Override
    public boolean revoke(Caller caller, long id) {
        if (tokens.list(caller.name(), caller).stream().noneMatch(t -> t.id() == id)) {
            return false;
        }
        tokens.revoke(id, caller);
        return true;
    }

    private static TokenLine line(ApiToken token) {
        return new TokenLine(token.id(), token.description(), token.createdAt(), token.expiresAt(), token.revokedAt());
    }
}
