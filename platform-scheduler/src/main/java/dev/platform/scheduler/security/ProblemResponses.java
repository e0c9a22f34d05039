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
 * RFC 6750 asks for), and for console pages a 403 page instead of JSON. Each answer says what is
 * actually wrong: a missing or unsupported credential, a form sent without its CSRF token, a path
 * that no endpoint serves (404, not a refusal by role), or roles that do not allow the request, naming who may
 * make it and how a user becomes one ({@link AccessRequirement}, on the console's 403 page too).
 */
@Component
class ProblemResponses implements AuthenticationEntryPoint, AccessDeniedHandler {

    /** Requests answered in JSON: the REST API, Kueue's visibility API and the actuator. */
    static final RequestMatcher API = request -> {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return path.startsWith("/api/") || path.startsWith("/apis/") || path.startsWith("/actuator/");
    };

    /** The request attribute that tells the console's 403 page why: {@code csrf} for a form without its token. */
    public static final String REFUSAL_ATTRIBUTE = "platform.refusal";

    private final BearerTokenAuthenticationEntryPoint bearer = new BearerTokenAuthenticationEntryPoint();
    private final AccessDeniedHandlerImpl consolePage = new AccessDeniedHandlerImpl();
    private final JsonMapper json;
    private final KnownEndpoints endpoints;

    ProblemResponses(JsonMapper json, KnownEndpoints endpoints) {
        this.json = json;
        this.endpoints = endpoints;
        this.consolePage.setErrorPage("/forbidden");
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException {
        bearer.commence(request, response, e);
        write(response, HttpStatus.UNAUTHORIZED, "Unauthorized", unauthorizedDetail(request.getHeader("Authorization"), e));
    }

    private static String unauthorizedDetail(String authorization, AuthenticationException e) {
        if (authorization == null) {
            return "this request needs Authorization: Bearer <token> (an API token, see POST /api/v1/tokens)";
        }
        int space = authorization.indexOf(' ');
        String scheme = space < 0 ? authorization : authorization.substring(0, space);
        if (!scheme.equalsIgnoreCase("Bearer")) {
            return "the Authorization scheme " + scheme + " is not supported: send Authorization: Bearer <token>"
                    + " (an API token, see POST /api/v1/tokens; the console logs in with a password)";
        }
        return "the bearer token is not valid here: " + e.getMessage();
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
            throws IOException, ServletException {
        if (!(e instanceof CsrfException) && !endpoints.serves(request)) {
            notFound(request, response);
            return;
        }
        if (!API.matches(request)) {
            if (e instanceof CsrfException) {
                request.setAttribute(REFUSAL_ATTRIBUTE, "csrf");
            }
            consolePage.handle(request, response, e);
            return;
        }
        Object requirement = request.getAttribute(AccessRules.REQUIREMENT_ATTRIBUTE);
        String detail = e instanceof CsrfException
                ? "the request carries a session cookie but no valid CSRF token; API clients send a bearer token"
                : requirement != null ? requirement.toString()
                : "your roles do not allow " + request.getMethod() + " " + request.getRequestURI();
        write(response, HttpStatus.FORBIDDEN, "Forbidden", detail);
    }

    /**
     * A path no endpoint serves is refused by the last rule (deny all) before any handler runs; it is
     * answered as what it is, a 404, so a caller is not told that roles are the problem.
     */
    private void notFound(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        if (API.matches(request)) {
            write(response, HttpStatus.NOT_FOUND, "Not Found", "no endpoint serves " + request.getMethod() + " "
                    + request.getRequestURI() + "; the API is described at /v3/api-docs");
            return;
        }
        response.setStatus(HttpStatus.NOT_FOUND.value());
        request.getRequestDispatcher("/not-found").forward(request, response);
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
