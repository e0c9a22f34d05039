package dev.platform.scheduler.config;

import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.scheduler.web.RequestBodies;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.util.List;

/** {@code POST /api/v1/manifests}: a Kueue user posts the YAML they already have. */
@RestController
@RequestMapping("/api/v1")
public class ManifestController {

    private final ManifestParser parser;
    private final RequestBodies bodies;
    private final ManifestApplication application;

    public ManifestController(ManifestParser parser, RequestBodies bodies, ManifestApplication application) {
        this.parser = parser;
        this.bodies = bodies;
        this.application = application;
    }

    @PostMapping(path = "/manifests", produces = "application/json")
    public ApplyResponse apply(HttpServletRequest request,
                               @RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String contentType,
                               @RequestParam(defaultValue = "false") boolean dryRun) throws IOException {
        ManifestParser.Format format = bodies.formatOf(contentType);
        byte[] body = bodies.read(request.getInputStream());
        List<DecodedDocument> documents = parser.parse(body, format);
        return new ApplyResponse(application.apply(documents, dryRun, Actors.current()), dryRun);
    }

    public record ApplyResponse(List<ApplyResult> results, boolean dryRun) {
    }
}
