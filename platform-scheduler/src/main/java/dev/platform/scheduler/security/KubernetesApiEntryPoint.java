package dev.platform.scheduler.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.env.Environment;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The Kubernetes API's answer to a request without valid credentials: a {@code metav1.Status} 401, as kube-apiserver
 * gives. Over plain HTTP it says where to go instead, because kubectl sends no token over HTTP and its users would
 * otherwise believe their token wrong.
 */
@Component
class KubernetesApiEntryPoint implements AuthenticationEntryPoint, AccessDeniedHandler {

    private final Environment environment;

    KubernetesApiEntryPoint(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException {
        String message = "Unauthorized";
        if (!request.isSecure() && request.getHeader("Authorization") == null) {
            String port = environment.getProperty("local.platform.tls.port",
                    environment.getProperty("platform.tls.port", "8443"));
            message = "Unauthorized: no credentials were sent; kubectl and the Kubernetes clients send a bearer token"
                    + " only over HTTPS: use https://" + request.getServerName() + ":" + port + "/k8s as the server"
                    + " (a kubeconfig from the console's API tokens page has it)";
        }
        write(response, 401, "Unauthorized", message);
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
            throws IOException {
        write(response, 403, "Forbidden", "forbidden: " + e.getMessage());
    }

    private static void write(HttpServletResponse response, int code, String reason, String message)
            throws IOException {
        response.setStatus(code);
        response.setContentType("application/json");
        String body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
                + quoted(message) + ",\"reason\":\"" + reason + "\",\"code\":" + code + "}";
        response.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
    }

    private static String quoted(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
