package dev.platform.scheduler.identity;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;

import java.time.Clock;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AgentTokenSettings.class)
class IdentityConfiguration {

    /** bcrypt for new passwords, and every format Spring Security knows for reading them. */
    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    @Bean
    AgentTokens agentTokens(AgentTokenRepository tokens, AccessAudit audit, Clock clock, AgentTokenSettings agents,
                            Environment environment) {
        if (environment.containsProperty("platform.agents.token")) {
            throw new IllegalStateException("platform.agents.token (one token for every cluster) is no longer"
                    + " accepted: an agent's token is bound to its cluster. Set platform.agents.tokens.<cluster>=<token>"
                    + " for each cluster, or issue one with POST /api/v1/clusters/{cluster}/agent-tokens.");
        }
        return new AgentTokens(tokens, audit, clock, agents.tokens());
    }
}
