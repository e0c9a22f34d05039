package dev.platform.scheduler.kubernetes;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.kubernetes.handlers.ApiRequest;
import dev.platform.scheduler.kubernetes.handlers.KubernetesApi;
import dev.platform.scheduler.kubernetes.handlers.StatusError;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.web.console.CurrentCaller;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything under {@code /k8s}: the Kubernetes API, for kubectl and the Kubernetes clients. Reads the path as
 * kube-apiserver does and hands the request to the discovery, OpenAPI or verb handler it names.
 */
@RestController
class KubernetesApiController {

    /** The path a kubeconfig's server ends with. */
    static final String PREFIX = "/k8s";

    private static final Logger log = LoggerFactory.getLogger(KubernetesApiController.class);

    private final KubernetesApi api;
    private final CurrentCaller callers;
    private final String platformVersion;

    KubernetesApiController(KubernetesApi api, CurrentCaller callers) {
        this.api = api;
        this.callers = callers;
        String version = KubernetesApiController.class.getPackage().getImplementationVersion();
        this.platformVersion = version == null ? "dev" : version;
    }

    @RequestMapping(PREFIX + "/**")
    void serve(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length() + PREFIX.length());
        List<String> parts = Arrays.stream(path.split("/")).filter(p -> !p.isEmpty())
                .map(p -> URLDecoder.decode(p, StandardCharsets.UTF_8)).toList();
        try {
            route(parts, request, response);
        } catch (StatusError e) {
            api.responses().error(response, e);
        } catch (Refusal e) {
            api.responses().error(response, e.kind() == Refusal.Kind.TooManyRequests
                    ? StatusError.tooManyRequests(e.getMessage(), 1) : StatusError.badRequest(e.getMessage()));
        } catch (RuntimeException e) {
            log.error("the Kubernetes API failed on {} {}", request.getMethod(), request.getRequestURI(), e);
            api.responses().error(response, StatusError.internal(e.getClass().getSimpleName() + ": " + e.getMessage()));
        }
    }

    private void route(List<String> parts, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        String method = request.getMethod();
        boolean read = method.equals("GET") || method.equals("HEAD");
        if (parts.equals(List.of("version")) && read) {
            api.discovery().version(response, platformVersion);
            return;
        }
        if (parts.equals(List.of("api")) && read) {
            api.discovery().coreVersions(response, request.getServerName() + ":" + request.getServerPort());
            return;
        }
        if (parts.equals(List.of("apis")) && read) {
            api.discovery().groups(response);
            return;
        }
        if (parts.size() == 2 && parts.get(0).equals("apis") && read) {
            api.discovery().group(response, parts.get(1));
            return;
        }
        if (parts.size() == 2 && parts.get(0).equals("api") && read) {
            api.discovery().resources(response, "", parts.get(1));
            return;
        }
        if (parts.size() == 3 && parts.get(0).equals("apis") && read) {
            api.discovery().resources(response, parts.get(1), parts.get(2));
            return;
        }
        if (parts.size() >= 2 && parts.get(0).equals("openapi") && read) {
            if (parts.size() == 2 && parts.get(1).equals("v2")) {
                api.openApi().emptyVersion2(response);
            } else if (parts.size() == 2 && parts.get(1).equals("v3")) {
                api.openApi().index(response);
            } else if (parts.get(1).equals("v3")) {
                api.openApi().document(response, String.join("/", parts.subList(2, parts.size())));
            } else {
                throw StatusError.noResource();
            }
            return;
        }
        Caller caller = callers.get().orElseThrow(() -> StatusError.unauthorized("Unauthorized"));
        ApiRequest apiRequest = ApiRequest.parse(method, parts, parameters(request), caller,
                request.getHeader("Accept"), request.getContentType(), request.getHeader("User-Agent"));
        switch (apiRequest.verb()) {
            case get -> api.get().handle(apiRequest, response);
            case list -> api.list().handle(apiRequest, response);
            case watch -> api.watch().handle(apiRequest, response);
            case create -> api.create().handle(apiRequest, request, response);
            case update -> api.update().handle(apiRequest, request, response);
            case patch -> api.patch().handle(apiRequest, request, response);
            case delete -> api.delete().handle(apiRequest, response);
            case deletecollection -> throw StatusError.methodNotSupported();
        }
    }

    private static Map<String, String> parameters(HttpServletRequest request) {
        Map<String, String> parameters = new LinkedHashMap<>();
        request.getParameterMap().forEach((key, values) -> parameters.put(key, values.length == 0 ? "" : values[0]));
        return parameters;
    }
}
