package dev.platform.scheduler.security;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;

/** A request authenticated by an agent token: the one cluster whose agent it may act as. */
final class AgentAuthentication extends AbstractAuthenticationToken {

    private final String cluster;

    AgentAuthentication(String cluster) {
        super(AuthorityUtils.NO_AUTHORITIES);
        this.cluster = cluster;
        setAuthenticated(true);
    }

    String cluster() {
        return cluster;
    }

    @Override
    public Object getPrincipal() {
        return "agent:" + cluster;
    }

    @Override
    public Object getCredentials() {
        return null;
    }
}
