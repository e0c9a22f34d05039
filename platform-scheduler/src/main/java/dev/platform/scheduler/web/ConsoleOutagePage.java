package dev.platform.scheduler.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * A console page while PostgreSQL is unreachable: 503 with {@code Retry-After} and a short page saying so, the
 * cause logged once at WARN, never a stack trace. Any other failure of a page keeps its usual handling (Spring
 * Boot's error page). This resolver answers for the console's handlers; a failure before any handler (the session
 * or API token lookup in the security filters) reaches {@link #render} through the error dispatch
 * ({@link ContainerErrorPages}). The REST API says the same in problem JSON ({@link ApiProblems}).
 */
@Component
class ConsoleOutagePage implements HandlerExceptionResolver {

    private static final Logger log = LoggerFactory.getLogger(ConsoleOutagePage.class);

    /** The console module's pages. */
    private static final String CONSOLE_PACKAGE = "dev.platform.web";

    @Override
    public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler,
                                         Exception failure) {
        if (handler instanceof HandlerMethod method && method.getBeanType().getPackageName().startsWith(CONSOLE_PACKAGE)
                && DatabaseUnavailable.causes(failure)) {
            return render(request, response, failure);
        }
        return null;
    }

    static ModelAndView render(HttpServletRequest request, HttpServletResponse response, Throwable failure) {
        log.warn("database unavailable, console page {} answered 503: {}", request.getRequestURI(),
                DatabaseUnavailable.describe(failure));
        response.setHeader(HttpHeaders.RETRY_AFTER, Integer.toString(DatabaseUnavailable.RETRY_AFTER_SECONDS));
        ModelAndView page = new ModelAndView("unavailable", HttpStatus.SERVICE_UNAVAILABLE);
        page.addObject("retryAfterSeconds", DatabaseUnavailable.RETRY_AFTER_SECONDS);
        return page;
    }
}
