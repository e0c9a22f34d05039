package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.scheduler.web.WarningHeaders;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.util.List;

/** Writes answers as kube-apiserver does: JSON bodies, Status for errors, Warning headers for warnings. */
public final class Responses {

    private final JsonMapper json;

    public Responses(JsonMapper json) {
        this.json = json;
    }

    public void write(HttpServletResponse response, int status, Object body, List<String> warnings) throws IOException {
        response.setStatus(status);
        WarningHeaders.of(warnings).forEach((name, values) -> values.forEach(v -> response.addHeader(name, v)));
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        json.writeValue(response.getOutputStream(), body);
    }

    public void write(HttpServletResponse response, Object body) throws IOException {
        write(response, 200, body, List.of());
    }

    public void error(HttpServletResponse response, StatusError error) throws IOException {
        write(response, error.code(), error.status(), List.of());
    }

    JsonMapper json() {
        return json;
    }
}
