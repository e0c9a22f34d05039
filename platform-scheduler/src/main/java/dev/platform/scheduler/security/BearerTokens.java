package dev.platform.scheduler.security;

import dev.platform.scheduler.identity.AgentTokens;
import dev.platform.scheduler.identity.ApiTokens;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider;
import org.springframework.stereotype.Component;

import java.util.regex.Pattern;

/**
 * Who a bearer token is. On user endpoints: the platform's API tokens, and, when an issuer or JWK set
 * is configured ({@code spring.security.oauth2.resourceserver.jwt.*}), the identity provider's JWTs.
 * On agent endpoints: agent tokens only. A user token is never an agent's, nor the reverse.
 */
@Component
class BearerTokens {

    /** Three base64url parts: a JWS compact serialization, which no token of the platform's own looks like. */
    private static final Pattern JWT = Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");

    private final ApiTokens apiTokens;
    private final AgentTokens agentTokens;
    private final JwtAuthenticationProvider jwts;

    BearerTokens(ApiTokens apiTokens, AgentTokens agentTokens, ObjectProvider<JwtDecoder> decoders,
                 IdentityProviderClaims claims) {
        this.apiTokens = apiTokens;
        this.agentTokens = agentTokens;
        JwtDecoder decoder = decoders.getIfAvailable();
        if (decoder == null) {
            this.jwts = null;
        } else {
            this.jwts = new JwtAuthenticationProvider(decoder);
            this.jwts.setJwtAuthenticationConverter(jwt -> claims.caller(jwt.getClaims())
                    .map(CallerAuthentication::new)
                    .orElseThrow(() -> new InvalidBearerTokenException("the token names no valid user")));
        }
    }

    boolean acceptsIdentityProviderTokens() {
        return jwts != null;
    }

    AuthenticationManager users() {
        return authentication -> {
            String token = ((BearerTokenAuthenticationToken) authentication).getToken();
            if (jwts != null && JWT.matcher(token).matches()) {
                return jwts.authenticate(authentication);
            }
            return apiTokens.authenticate(token).map(CallerAuthentication::new)
                    .orElseThrow(() -> new InvalidBearerTokenException("the token is unknown, expired or revoked"));
        };
    }

    AuthenticationManager agents() {
        return authentication -> agentTokens.clusterOf(((BearerTokenAuthenticationToken) authentication).getToken())
                .map(AgentAuthentication::new)
                .orElseThrow(() -> new InvalidBearerTokenException("not an agent token, or expired or revoked"));
    }
}
