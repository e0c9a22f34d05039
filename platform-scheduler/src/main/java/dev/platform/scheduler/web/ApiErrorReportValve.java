package dev.platform.scheduler.web;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Tomcat's host-level error page, which answers requests refused before they reach the
 * application (an encoded {@code /} or {@code \} in the path, a malformed escape, a malformed request
 * line): problem JSON for {@code /api/} paths, Tomcat's HTML page for the others, in both without the
 * exception, its stack trace or the server's name and version. A request whose line could not be read at all
 * (longer than the largest request header Tomcat accepts) has no path to tell; it is answered in problem JSON
 * too, since programs, not browsers, send such requests, and the message says what was too large.
 * Installed by {@link ContainerErrorPages}.
 */
public class ApiErrorReportValve extends ErrorReportValve {

    public ApiErrorReportValve() {
        setShowReport(false);
        setShowServerInfo(false);
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        String uri = request.getRequestURI();
        boolean unreadRequestLine = uri == null;
        if (status < 400 || response.getContentWritten() > 0 || !(unreadRequestLine || ContainerProblems.isApi(uri))) {
            super.report(request, response, throwable);
            return;
        }
        if (!response.setErrorReported()) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean();
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        try {
            response.setContentType(ContainerProblems.CONTENT_TYPE);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            Writer writer = response.getReporter();
            if (writer != null) {
                String message = response.getMessage() == null && throwable != null ? throwable.getMessage()
                        : response.getMessage();
                writer.write(ContainerProblems.json(status, message, uri));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            container.getLogger().debug("could not write the problem response", e);
        }
    }
}
