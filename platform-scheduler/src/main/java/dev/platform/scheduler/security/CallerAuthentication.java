package dev.platform.scheduler.security;

import dev.platform.api.identity.Caller;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;

/** A request authenticated by a bearer token (the platform's own or an identity provider's): its caller. */
final class CallerAuthentication extends AbstractAuthenticationToken {

    private final transient Caller caller;

    CallerAuthentication(Caller caller) {
        super(AuthorityUtils.NO_AUTHORITIES);
        this.caller = caller;
        setAuthenticated(true);
    }

    @Override
    public Caller getPrincipal() {
        return caller;
    }

    @Override
    public Object getCredentials() {
        return null;
    }

    @Override
    public String getName() {
        return caller.name();
    }
}
