package dev.platform.scheduler.web;

import dev.platform.api.agent.AgentReport;
import dev.platform.scheduler.refusal.Refusal;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The agent endpoints' body limit: refused by its Content-Length before any byte is read, or at the first byte past it. */
class AgentBodyLimitTest {

    private static final String REPORTS = "/api/v1/agent/clusters/prod-1/reports";
    private final AgentBodyLimit limit = new AgentBodyLimit(100);

    @AfterEach
    void noRequest() {
        RequestContextHolder.resetRequestAttributes();
    }

    @Test
    void aContentLengthOverTheLimitIsRefusedBeforeAnyByteIsRead() {
        CountingBody body = new CountingBody(new byte[1000]);
        MockHttpServletRequest request = request(REPORTS, body);
        request.setContent(new byte[1000]);

        assertThatThrownBy(() -> limit.preHandle(request, new MockHttpServletResponse(), new Object()))
                .isInstanceOfSatisfying(Refusal.class, r -> assertThat(r.kind()).isEqualTo(Refusal.Kind.TooLarge))
                .hasMessageContaining("1000 bytes").hasMessageContaining("platform.agents.max-body-bytes");
        assertThat(body.served).isZero();
        request.setContent(new byte[100]);
        assertThat(limit.preHandle(request, new MockHttpServletResponse(), new Object())).isTrue();
    }

    @Test
    void aReportWithoutContentLengthIsRefusedAtTheFirstBytePastTheLimitNotParsedWhole() {
        byte[] report = ("{\"agentId\": \"" + "a".repeat(10_000) + "\"}").getBytes(StandardCharsets.UTF_8);
        CountingBody body = new CountingBody(report);
        HttpInputMessage bounded = bodyOf(REPORTS, body);

        assertThatThrownBy(() -> new JacksonJsonHttpMessageConverter().read(AgentReport.class, bounded))
                .isInstanceOfSatisfying(Refusal.class, r -> assertThat(r.kind()).isEqualTo(Refusal.Kind.TooLarge))
                .hasMessageContaining("more than 100 bytes");
        assertThat(body.served).as("not read whole").isLessThan(report.length);
    }

    @Test
    void aBodyWithinTheLimitAndOtherEndpointsBodiesAreReadAsSent() throws IOException {
        assertThat(bodyOf(REPORTS, new CountingBody(new byte[100])).getBody().readAllBytes()).hasSize(100);
        assertThat(bodyOf("/api/v1/users", new CountingBody(new byte[10_000])).getBody().readAllBytes())
                .hasSize(10_000);
    }

    /** The body as the handler's argument reader gets it while {@code path} is being served. */
    private HttpInputMessage bodyOf(String path, CountingBody body) {
        MockHttpServletRequest request = request(path, body);
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request));
        try {
            return limit.beforeBodyRead(new ServletServerHttpRequest(request), null, AgentReport.class, null);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static MockHttpServletRequest request(String path, CountingBody body) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", path) {
            @Override
            public ServletInputStream getInputStream() {
                return body;
            }
        };
        request.setContentType("application/json");
        return request;
    }

    /** A request body without a length, counting the bytes it has served. */
    private static final class CountingBody extends ServletInputStream {

        private final ByteArrayInputStream bytes;
        private final int size;
        int served;

        CountingBody(byte[] content) {
            this.bytes = new ByteArrayInputStream(content);
            this.size = content.length;
        }

        @Override
        public int read() {
            int b = bytes.read();
            if (b >= 0) {
                served++;
            }
            return b;
        }

        @Override
        public boolean isFinished() {
            return served == size;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
        }
    }
}
