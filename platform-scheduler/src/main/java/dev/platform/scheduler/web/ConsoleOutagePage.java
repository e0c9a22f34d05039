package dev.platform.scheduler.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.session.web.http.SessionRepositoryFilter;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.View;
import org.springframework.web.servlet.ViewResolver;

import java.io.IOException;

/**
 * A console page while PostgreSQL is unreachable: 503 with {@code Retry-After} and a short page saying so, the
 * cause logged once at WARN, never a stack trace. Any other failure of a page keeps its usual handling (Spring
 * Boot's error page). The REST API says the same in problem JSON ({@link ApiProblems}, {@link ContainerErrorPages}).
 * Two ways in: this resolver for a failure in a console handler, and {@link Filter} for one before any handler.
 */
@Component
class ConsoleOutagePage implements HandlerExceptionResolver {

    private static final Logger log = LoggerFactory.getLogger(ConsoleOutagePage.class);

    /** The console module's pages. */
    private static final String CONSOLE_PACKAGE = "dev.platform.web";
    private static final String VIEW = "unavailable";

    @Override
    public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler,
                                         Exception failure) {
        if (handler instanceof HandlerMethod method && method.getBeanType().getPackageName().startsWith(CONSOLE_PACKAGE)
                && DatabaseUnavailable.causes(failure)) {
            return page(request, response, failure);
        }
        return null;
    }

    private static ModelAndView page(HttpServletRequest request, HttpServletResponse response, Throwable failure) {
        log.warn("database unavailable, console page {} answered 503: {}", request.getRequestURI(),
                DatabaseUnavailable.describe(failure));
        response.setStatus(HttpStatus.SERVICE_UNAVAILABLE.value());
        response.setHeader(HttpHeaders.RETRY_AFTER, Integer.toString(DatabaseUnavailable.RETRY_AFTER_SECONDS));
        ModelAndView page = new ModelAndView(VIEW, HttpStatus.SERVICE_UNAVAILABLE);
        page.addObject("retryAfterSeconds", DatabaseUnavailable.RETRY_AFTER_SECONDS);
        return page;
    }

    /**
     * The same page when the failure comes before any handler: a browser's session is read from PostgreSQL (Spring
     * Session) and an API token is looked up there, both in filters. Left to the container, a logged-in browser got
     * Tomcat's report with the stack trace, not Spring Boot's error page (DatabaseOutageIT); so this filter, ahead of
     * the session's, answers itself. API paths keep the API's own 503 ({@link ContainerErrorPages}).
     */
    @Component
    static class Filter extends OncePerRequestFilter implements Ordered {

        private final ObjectProvider<ViewResolver> views;

        Filter(@Qualifier("thymeleafViewResolver") ObjectProvider<ViewResolver> views) {
            this.views = views;
        }

        @Override
        public int getOrder() {
            return SessionRepositoryFilter.DEFAULT_ORDER - 1;
        }

        @Override
        protected boolean shouldNotFilter(HttpServletRequest request) {
            return ContainerProblems.isApi(request.getRequestURI().substring(request.getContextPath().length()));
        }

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            try {
                chain.doFilter(request, response);
            } catch (ServletException | RuntimeException failure) {
                if (response.isCommitted() || !DatabaseUnavailable.causes(failure)) {
                    throw failure;
                }
                response.resetBuffer();
                ModelAndView page = page(request, response, failure);
                try {
                    View view = views.getObject().resolveViewName(page.getViewName(), request.getLocale());
                    if (view == null) {
                        throw new IllegalStateException("no view " + page.getViewName());
                    }
                    view.render(page.getModel(), request, response);
                } catch (Exception e) {
                    throw new ServletException("could not render the console's outage page", e);
                }
            }
        }
    }
}
