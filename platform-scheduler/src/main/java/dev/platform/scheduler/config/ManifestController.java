package dev.platform.scheduler.config;

import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.identity.Caller;
import dev.platform.api.identity.ClusterRole;
import dev.platform.api.manifest.FieldValidation;
import dev.platform.api.manifest.Manifest;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.workload.SubmissionRateLimiter;
import dev.platform.scheduler.web.RequestBodies;
import dev.platform.scheduler.web.WarningHeaders;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /api/v1/manifests}: a Kueue user posts the YAML they already have. Each document is
 * authorized on its own (configuration kinds are for Admins, workloads for the team owning their
 * namespace); one refused document refuses the request, which stays all-or-nothing. Without
 * {@code fieldValidation}, unknown fields refuse a workload and are warnings in configuration
 * ({@link FieldValidation#defaultFor}); with it, every document is validated as it says.
 */
@RestController
@RequestMapping("/api/v1")
public class ManifestController {

    private final ManifestParser parser;
    private final RequestBodies bodies;
    private final ManifestApplication application;
    private final SubmissionRateLimiter rate;

    public ManifestController(ManifestParser parser, RequestBodies bodies, ManifestApplication application,
                              SubmissionRateLimiter rate) {
        this.parser = parser;
        this.bodies = bodies;
        this.application = application;
        this.rate = rate;
    }

    @PostMapping(path = "/manifests", produces = "application/json")
    public ResponseEntity<ApplyResponse> apply(HttpServletRequest request,
                                               @RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false)
                                               String contentType,
                                               @RequestParam(defaultValue = "false") boolean dryRun,
                                               @RequestParam(required = false) FieldValidation fieldValidation,
                                               Caller caller) throws IOException {
        ManifestParser.Format format = bodies.formatOf(contentType);
        byte[] body = bodies.read(request.getInputStream());
        List<DecodedDocument> documents = fieldValidation == null ? parser.parse(body, format)
                : parser.parse(body, format, fieldValidation);
        authorize(documents, caller);
        if (!dryRun) {
            rate.acquire(caller.name(), (int) documents.stream().filter(d -> !d.manifest().kind().isConfiguration()).count());
        }
        List<ApplyResult> results = application.apply(documents, dryRun, caller.name());
        return ResponseEntity.ok().headers(WarningHeaders.of(warningsOf(results))).body(new ApplyResponse(results, dryRun));
    }

    /** Each result's warnings, said of its object, as a client applying many objects needs them. */
    private static List<String> warningsOf(List<ApplyResult> results) {
        return results.stream().flatMap(result -> result.warnings().stream().map(warning -> result.kind() + " "
                + (result.namespace() == null ? "" : result.namespace() + "/") + result.name() + ": " + warning))
                .toList();
    }

    private static void authorize(List<DecodedDocument> documents, Caller caller) {
        List<Map<String, Object>> refused = new ArrayList<>();
        boolean configuration = false;
        for (int i = 0; i < documents.size(); i++) {
            Manifest manifest = documents.get(i).manifest();
            if (manifest.kind().isConfiguration() && !caller.isAdmin()) {
                configuration = true;
                refused.add(Map.of("document", i, "path", "kind", "message", manifest.kind().manifestName()
                        + " is configuration, which only an Admin applies"));
            } else if (!manifest.kind().isConfiguration() && !caller.maySubmit(manifest.namespace())) {
                refused.add(Map.of("document", i, "path", "metadata.namespace", "message", "you may not submit"
                        + " workloads in namespace " + manifest.namespace() + ": it belongs to none of your teams"));
            }
        }
        if (!refused.isEmpty()) {
            String detail = refused.size() == 1 ? (String) refused.get(0).get("message")
                    : refused.size() + " documents are not yours to apply; nothing was applied";
            throw new Refusal(Refusal.Kind.Forbidden, "Forbidden",
                    configuration ? detail + ". " + ClusterRole.Admin.howToBecome() : detail, refused);
        }
    }

    public record ApplyResponse(List<ApplyResult> results, boolean dryRun) {
    }
}
