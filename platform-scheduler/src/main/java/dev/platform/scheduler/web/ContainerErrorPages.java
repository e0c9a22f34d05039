package dev.platform.scheduler.web;

import jakarta.servlet.RequestDispatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.core.StandardHost;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.web.WebProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.webmvc.autoconfigure.error.BasicErrorController;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorViewResolver;
import org.springframework.boot.webmvc.error.ErrorAttributes;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.servlet.ModelAndView;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Errors that no controller of the API answers, in the API's problem JSON for {@code /api/} paths
 * whatever the client accepts, and unchanged (Spring Boot's error page, Tomcat's) elsewhere:
 * <ul>
 *   <li>inside the application, Spring Boot's {@code /error} dispatch (a missing route, a status a
 *       filter sends such as 401 or 403, an exception thrown by a filter or a firewall) is served by
 *       {@link ApiErrorController};</li>
 *   <li>before it, Tomcat's own refusals are rendered by {@link ApiErrorReportValve}, set as the
 *       host's error report valve.</li>
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
class ContainerErrorPages {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> apiErrorReportValve() {
        return factory -> factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(ApiErrorReportValve.class.getName());
            }
        });
    }

    @Bean
    ApiErrorController apiErrorController(ErrorAttributes errorAttributes, WebProperties web,
                                           ObjectProvider<ErrorViewResolver> resolvers) {
        return new ApiErrorController(errorAttributes, web, resolvers);
    }

    /** A handler because its superclass is a {@code @Controller}; a bean of this configuration, not scanned. */
    @RequestMapping("${server.error.path:${error.path:/error}}")
    static class ApiErrorController extends BasicErrorController {

        private static final Logger log = LoggerFactory.getLogger(ApiErrorController.class);

        ApiErrorController(ErrorAttributes errorAttributes, WebProperties web,
                           ObjectProvider<ErrorViewResolver> resolvers) {
            super(errorAttributes, web.getError(), resolvers.orderedStream().toList());
        }

        @Override
        public ModelAndView errorHtml(HttpServletRequest request, HttpServletResponse response) {
            if (!ContainerProblems.isApi(originalUri(request))) {
                return super.errorHtml(request, response);
            }
            int status = status(request);
            if (status == HttpStatus.SERVICE_UNAVAILABLE.value()) {
                response.setHeader(HttpHeaders.RETRY_AFTER, Integer.toString(DatabaseUnavailable.RETRY_AFTER_SECONDS));
            }
            try {
                response.setStatus(status);
                response.setContentType(ContainerProblems.CONTENT_TYPE);
                response.setCharacterEncoding(StandardCharsets.UTF_8.name());
                response.getWriter().write(ContainerProblems.json(status, message(request), originalUri(request)));
            } catch (IOException e) {
                throw new IllegalStateException("could not write the problem response", e);
            }
            return null;
        }

        @Override
        public ResponseEntity<Map<String, Object>> error(HttpServletRequest request) {
            if (!ContainerProblems.isApi(originalUri(request))) {
                return super.error(request);
            }
            int status = status(request);
            ResponseEntity.BodyBuilder answer = ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON);
            if (status == HttpStatus.SERVICE_UNAVAILABLE.value()) {
                answer.header(HttpHeaders.RETRY_AFTER, Integer.toString(DatabaseUnavailable.RETRY_AFTER_SECONDS));
            }
            return answer.body(ContainerProblems.body(status, message(request), originalUri(request)));
        }

        /**
         * A filter that needed the database while it was away (the bearer token's lookup, a console session)
         * is a 503 to retry, as in the controllers, not a 500.
         */
        private int status(HttpServletRequest request) {
            if (request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) instanceof Throwable failure
                    && DatabaseUnavailable.causes(failure)) {
                log.warn("database unavailable before the API's handlers, answered 503: {}",
                        DatabaseUnavailable.describe(failure));
                return HttpStatus.SERVICE_UNAVAILABLE.value();
            }
            return getStatus(request).value();
        }

        private static String originalUri(HttpServletRequest request) {
            Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
            return uri instanceof String s ? s : request.getRequestURI();
        }

        private static String message(HttpServletRequest request) {
            return request.getAttribute(RequestDispatcher.ERROR_MESSAGE) instanceof String s ? s : null;
        }
    }
}
