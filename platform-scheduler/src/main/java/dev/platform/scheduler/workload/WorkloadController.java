package dev.platform.scheduler.workload;

import dev.platform.api.identity.Caller;
import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.FieldValidation;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.web.KeysetCursor;
import dev.platform.scheduler.web.KubernetesYaml;
import dev.platform.scheduler.web.RequestBodies;
import dev.platform.scheduler.web.WarningHeaders;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.UUID;

/**
 * Submitting, reading and cancelling workloads. The request rules let only the team owning the
 * namespace (and Ops to read and cancel, Admin for all) in; submissions count against the caller's rate.
 */
@RestController
@RequestMapping(path = "/api/v1/namespaces/{namespace}/workloads", produces = "application/json")
public class WorkloadController {

    static final int MAX_PAGE = 500;

    private final ManifestParser parser;
    private final RequestBodies bodies;
    private final WorkloadService workloads;
    private final SubmissionWriter submissions;
    private final WorkloadStore store;
    private final WorkloadStatuses statuses;
    private final SubmissionRateLimiter rate;
    private final WorkloadUpdates updates;
    private final WorkloadObjects objects;
    private final JsonMapper json;
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    public WorkloadController(ManifestParser parser, RequestBodies bodies, WorkloadService workloads,
                              SubmissionWriter submissions, WorkloadStore store, WorkloadStatuses statuses, SubmissionRateLimiter rate,
                              WorkloadUpdates updates, WorkloadObjects objects, JsonMapper json) {
        this.updates = updates;
        this.objects = objects;
        this.json = json;
        this.parser = parser;
        this.bodies = bodies;
        this.workloads = workloads;
        this.submissions = submissions;
        this.store = store;
        this.statuses = statuses;
        this.rate = rate;
    }

    /** Unknown fields refuse the submission unless {@code fieldValidation} is Warn or Ignore (kubectl's --validate). */
    @PostMapping
    public ResponseEntity<SubmittedWorkload> submit(@PathVariable String namespace, HttpServletRequest request,
                                                    @RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false)
                                                    String contentType,
                                                    @RequestHeader(value = "Idempotency-Key", required = false)
                                                    String idempotencyKey,
                                                    @RequestParam(defaultValue = "Strict") FieldValidation fieldValidation,
                                                    UriComponentsBuilder uri, Caller caller) throws IOException {
        rate.acquire(caller.name(), 1);
        ManifestParser.Format format = bodies.formatOf(contentType);
        DecodedDocument document = parser.parseWorkload(bodies.read(request.getInputStream()), format, namespace,
                fieldValidation);
        SubmissionWriter.Answer answer = submissions.submit(document, blankToNull(idempotencyKey), caller.name());
        WorkloadRow workload = answer.submitted().workload();
        URI location = uri.path("/api/v1/namespaces/{namespace}/workloads/{name}")
                .buildAndExpand(namespace, workload.name()).toUri();
        WorkloadStatus status = answer.status() != null ? answer.status() : statuses.of(workload);
        return ResponseEntity.status(HttpStatus.CREATED).location(location)
                .headers(WarningHeaders.of(document.warnings()))
                .body(new SubmittedWorkload(status, document.warnings()));
    }

    @GetMapping
    public WorkloadPage list(@PathVariable String namespace,
                             @RequestParam(required = false) String state,
                             @RequestParam(required = false) String queue,
                             @RequestParam(required = false) String cursor,
                             @RequestParam(defaultValue = "100") int limit) {
        return page(store, statuses, List.of(namespace), state, queue, cursor, limit);
    }

    /** One page of the workloads of {@code namespaces} (null: every namespace), newest first. */
    static WorkloadPage page(WorkloadStore store, WorkloadStatuses statuses, Collection<String> namespaces,
                             String state, String queue, String cursor, int limit) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new Refusal(Refusal.Kind.Malformed, "Bad Request",
                    "limit must be between 1 and " + MAX_PAGE, List.of());
        }
        List<WorkloadRow> rows = store.list(namespaces, state == null ? null : parseState(state), queue,
                cursor == null ? null : KeysetCursor.decode(cursor, UUID::fromString), limit + 1);
        KeysetCursor.Page<WorkloadRow> page = KeysetCursor.page(rows, limit,
                w -> new KeysetCursor<>(w.createdAt(), w.uid()));
        return new WorkloadPage(statuses.of(page.items()), page.next());
    }

    @GetMapping("/{name}")
    public WorkloadStatus get(@PathVariable String namespace, @PathVariable String name) {
        return statuses.of(find(namespace, name));
    }

    /**
     * The workload as a Kubernetes object ({@link WorkloadObjects}) with the status above as {@code status}.
     * {@code POST /api/v1/manifests} takes it back as {@code unchanged}.
     */
    @GetMapping(path = "/{name}", produces = KubernetesYaml.MEDIA_TYPE)
    public String object(@PathVariable String namespace, @PathVariable String name) {
        WorkloadRow row = find(namespace, name);
        Map<String, Object> object = new LinkedHashMap<>(objects.object(row).orElseThrow());
        Map<String, Object> status = json.convertValue(statuses.of(row), OBJECT);
        List.of("namespace", "name", "kind", "uid").forEach(status::remove);
        object.put("status", status);
        return KubernetesYaml.yaml(object);
    }

    @GetMapping("/{name}/events")
    public EventPage events(@PathVariable String namespace, @PathVariable String name) {
        return new EventPage(store.events(find(namespace, name).uid()));
    }

    @DeleteMapping("/{name}")
    public WorkloadStatus cancel(@PathVariable String namespace, @PathVariable String name, Caller caller) {
        return statuses.of(workloads.cancel(namespace, name, caller.name()));
    }

    /** kueuectl stop workload: spec.active false; an admitted workload is evicted by the scheduler's next turn. */
    @PostMapping("/{name}/stop")
    public WorkloadStatus stop(@PathVariable String namespace, @PathVariable String name, Caller caller) {
        return statuses.of(updates.setActive(namespace, name, false, caller.name()));
    }

    /** kueuectl resume workload: spec.active true; it waits in its queue again at its place. */
    @PostMapping("/{name}/resume")
    public WorkloadStatus resume(@PathVariable String namespace, @PathVariable String name, Caller caller) {
        return statuses.of(updates.setActive(namespace, name, true, caller.name()));
    }

    /**
     * A JSON merge patch of the workload (kubectl patch --type=merge): {@code spec.active} and the label
     * {@code kueue.x-k8s.io/priority-class} may change; anything else is a 422.
     */
    @PatchMapping(path = "/{name}", consumes = {"application/merge-patch+json", "application/json"})
    public WorkloadStatus patch(@PathVariable String namespace, @PathVariable String name, HttpServletRequest request,
                                Caller caller) throws IOException {
        return statuses.of(updates.patch(namespace, name, bodies.read(request.getInputStream()), caller.name()));
    }

    private WorkloadRow find(String namespace, String name) {
        return store.find(namespace, name).orElseThrow(() -> Refusal.notFound("Workload", namespace + "/" + name));
    }

    private static WorkloadState parseState(String state) {
        try {
            return WorkloadState.valueOf(state);
        } catch (IllegalArgumentException e) {
            throw new Refusal(Refusal.Kind.Malformed, "Bad Request", "state must be one of "
                    + List.of(WorkloadState.values()), List.of());
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    /** A page of workloads; {@code next} is the cursor of the following page, null on the last. */
    public record WorkloadPage(List<WorkloadStatus> items, String next) {
    }

    public record EventPage(List<WorkloadStore.WorkloadEvent> items) {
    }
}
