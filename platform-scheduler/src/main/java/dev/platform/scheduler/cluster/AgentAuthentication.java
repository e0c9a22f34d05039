package dev.platform.scheduler.cluster;

import dev.platform.scheduler.web.ApiException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import java.util.List;
import java.util.Map;

/** Every agent endpoint ({@code /api/v1/agent/**}) requires {@code Authorization: Bearer <token>}. */
@Configuration(proxyBeanMethods = false)
class AgentAuthentication implements WebMvcConfigurer, HandlerInterceptor {

    private static final String BEARER = "Bearer ";

    private final AgentAuthenticator authenticator;

    AgentAuthentication(AgentAuthenticator authenticator) {
        this.authenticator = authenticator;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this).addPathPatterns("/api/v1/agent/**");
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        @SuppressWarnings("unchecked")
        Map<String, String> variables = (Map<String, String>) request.getAttribute(
                HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
        String cluster = variables == null ? null : variables.get("cluster");
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        String token = header != null && header.regionMatches(true, 0, BEARER, 0, BEARER.length())
                ? header.substring(BEARER.length()).trim() : null;
        switch (authenticator.authenticate(cluster, token)) {
            case ACCEPTED -> {
                return true;
            }
            case DISABLED -> throw unauthorized(response, "Agents disabled",
                    "agents are disabled until a token is configured: set platform.agents.token on the scheduler"
                            + " and platform.agent.token on the agent");
            default -> throw unauthorized(response, "Unauthorized", token == null
                    ? "an agent call needs the header Authorization: Bearer <token>"
                    : "the bearer token is not valid for cluster " + cluster);
        }
    }

    private static ApiException unauthorized(HttpServletResponse response, String title, String detail) {
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"platform-agents\"");
        return new ApiException(HttpStatus.UNAUTHORIZED, title, detail, List.of());
    }
}
