package dev.platform.scheduler.security;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;

import java.util.List;

/**
 * Whether any controller or actuator endpoint serves a request's method and path. The authorization
 * rules end in "deny everything else", which refuses an unknown path before any handler could answer
 * 404; {@link ProblemResponses} asks here to tell the two apart.
 */
@Component
class KnownEndpoints {

    private final ObjectProvider<RequestMappingInfoHandlerMapping> mappings;

    KnownEndpoints(ObjectProvider<RequestMappingInfoHandlerMapping> mappings) {
        this.mappings = mappings;
    }

    boolean serves(HttpServletRequest request) {
        boolean parsedHere = !ServletRequestPathUtils.hasParsedRequestPath(request);
        if (parsedHere) {
            ServletRequestPathUtils.parseAndCache(request);
        }
        try {
            List<RequestMappingInfoHandlerMapping> all = mappings.orderedStream().toList();
            for (RequestMappingInfoHandlerMapping mapping : all) {
                if (handles(mapping, request)) {
                    return true;
                }
            }
            return false;
        } finally {
            if (parsedHere) {
                ServletRequestPathUtils.clearParsedRequestPath(request);
            }
        }
    }

    /**
     * A path served for other methods only is not served; a mapping that refuses the request for another
     * reason (what it accepts or produces) serves the path, so the refusal by role stands.
     */
    private static boolean handles(RequestMappingInfoHandlerMapping mapping, HttpServletRequest request) {
        try {
            return mapping.getHandler(request) != null;
        } catch (HttpRequestMethodNotSupportedException e) {
            return false;
        } catch (Exception e) {
            return true;
        }
    }
}
