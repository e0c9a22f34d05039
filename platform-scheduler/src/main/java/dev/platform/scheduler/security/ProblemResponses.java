package dev.platform.scheduler.security;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.server.resource.web.BearerTokenAuthenticationEntryPoint;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.access.AccessDeniedHandlerImpl;
import org.springframework.security.web.csrf.CsrfException;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.util.List;

/**
 * 401 and 403 in the API's shape (RFC 9457 problem+json, with the {@code WWW-Authenticate} header
 * RFC 6750 asks for), and for console pages a 403 page instead of JSON.
 */
@Component
class ProblemResponses implements AuthenticationEntryPoint, AccessDeniedHandler {

    /** Requests answered in JSON: the REST API, Kueue's visibility API and the actuator. */
    static final RequestMatcher API = request -> {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return path.startsWith("/api/") || path.startsWith("/apis/") || path.startsWith("/actuator/");
    };

    private final BearerTokenAuthenticationEntryPoint bearer = new BearerTokenAuthenticationEntryPoint();
    private final AccessDeniedHandlerImpl consolePage = new AccessDeniedHandlerImpl();
    private final JsonMapper json;

    ProblemResponses(JsonMapper json) {
        this.json = json;
        this.consolePage.setErrorPage("/forbidden");
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException {
        bearer.commence(request, response, e);
        String detail = request.getHeader("Authorization") == null
                ? "this request needs Authorization: Bearer <token> (an API token, see POST /api/v1/tokens)"
                : "the bearer token is not valid here: " + e.getMessage();
        write(response, HttpStatus.UNAUTHORIZED, "Unauthorized", detail);
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
            throws IOException, ServletException {
        if (!API.matches(request)) {
            consolePage.handle(request, response, e);
            return;
        }
        String detail = e instanceof CsrfException
                ? "the request carries a session cookie but no valid CSRF token; API clients send a bearer token"
                : "your roles do not allow " + request.getMethod() + " " + request.getRequestURI();
        write(response, HttpStatus.FORBIDDEN, "Forbidden", detail);
    }

    private void write(HttpServletResponse response, HttpStatus status, String title, String detail) throws IOException {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setTitle(title);
        problem.setProperty("errors", List.of());
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getOutputStream().write(json.writeValueAsBytes(problem));
    }
}
