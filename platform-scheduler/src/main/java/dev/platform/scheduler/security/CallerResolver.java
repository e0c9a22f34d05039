package dev.platform.scheduler.security;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.identity.CallerDirectory;
import dev.platform.web.console.CurrentCaller;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

import java.util.Optional;

/**
 * The caller of the current request, whichever way it authenticated: a bearer token carries its
 * caller already; a console session or an OIDC login names a user whose roles are read afresh (once
 * per request), so a change of teams or a deleted user takes effect on the next request.
 */
@Component
public class CallerResolver implements CurrentCaller {

    private static final String ATTRIBUTE = CallerResolver.class.getName();
    private static final Optional<Caller> NONE = Optional.empty();

    private final CallerDirectory directory;
    private final IdentityProviderClaims claims;

    CallerResolver(CallerDirectory directory, IdentityProviderClaims claims) {
        this.directory = directory;
        this.claims = claims;
    }

    @Override
    public Optional<Caller> get() {
        return resolve(SecurityContextHolder.getContext().getAuthentication());
    }

    @SuppressWarnings("unchecked")
    Optional<Caller> resolve(Authentication authentication) {
        if (authentication == null || !authentication.isAuthenticated()) {
            return NONE;
        }
        if (authentication instanceof CallerAuthentication token) {
            return Optional.of(token.getPrincipal());
        }
        RequestAttributes request = RequestContextHolder.getRequestAttributes();
        if (request != null && request.getAttribute(ATTRIBUTE, RequestAttributes.SCOPE_REQUEST) instanceof Optional<?> cached) {
            return (Optional<Caller>) cached;
        }
        Optional<Caller> caller = lookUp(authentication);
        if (request != null) {
            request.setAttribute(ATTRIBUTE, caller, RequestAttributes.SCOPE_REQUEST);
        }
        return caller;
    }

    private Optional<Caller> lookUp(Authentication authentication) {
        if (authentication instanceof AgentAuthentication) {
            return NONE;
        }
        if (authentication.getPrincipal() instanceof OidcUser user) {
            return claims.caller(user.getClaims());
        }
        if (authentication.getPrincipal() instanceof org.springframework.security.core.userdetails.UserDetails user) {
            return directory.localUser(user.getUsername());
        }
        return NONE;
    }
}
