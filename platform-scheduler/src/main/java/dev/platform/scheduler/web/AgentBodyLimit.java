package dev.platform.scheduler.web;

import dev.platform.api.agent.AgentProtocol;
import dev.platform.scheduler.refusal.Refusal;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Type;
import java.util.List;

/**
 * The agent endpoints' body limit ({@code platform.agents.max-body-bytes}), held before the body is read: a
 * Content-Length over it is refused before the handler reads a byte, and a body without one (chunked) is refused
 * with the first byte past it, so an oversized report is never read whole nor parsed. Other endpoints keep their
 * own limits.
 */
@ControllerAdvice
public class AgentBodyLimit extends RequestBodyAdviceAdapter implements HandlerInterceptor, WebMvcConfigurer {

    private static final String AGENT_PATHS = AgentProtocol.BASE_PATH + "/";

    private final long maxBytes;

    public AgentBodyLimit(@Value("${platform.agents.max-body-bytes:33554432}") long maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this).addPathPatterns(AGENT_PATHS + "**");
    }

    /** Before any argument is resolved: reading the body would wait for its first byte. */
    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        long length = request.getContentLengthLong();
        if (length > maxBytes) {
            throw tooLarge("the body has " + length + " bytes");
        }
        return true;
    }

    @Override
    public boolean supports(MethodParameter parameter, Type targetType,
                            Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public HttpInputMessage beforeBodyRead(HttpInputMessage message, MethodParameter parameter, Type targetType,
                                           Class<? extends HttpMessageConverter<?>> converterType) throws IOException {
        if (!(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes)
                || !attributes.getRequest().getRequestURI().startsWith(AGENT_PATHS)) {
            return message;
        }
        InputStream bounded = new Bounded(message.getBody());
        HttpHeaders headers = message.getHeaders();
        return new HttpInputMessage() {
            @Override
            public InputStream getBody() {
                return bounded;
            }

            @Override
            public HttpHeaders getHeaders() {
                return headers;
            }
        };
    }

    private Refusal tooLarge(String found) {
        return new Refusal(Refusal.Kind.TooLarge, "Request body too large", found + "; the agent endpoints accept at"
                + " most " + maxBytes + " (platform.agents.max-body-bytes)", List.of());
    }

    /** Counts what is read and refuses the first byte past the limit. */
    private final class Bounded extends FilterInputStream {

        private long read;

        Bounded(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(n);
            count(skipped);
            return skipped;
        }

        private void count(long n) {
            read += n;
            if (read > maxBytes) {
                throw tooLarge("the body has more than " + maxBytes + " bytes");
            }
        }
    }
}
