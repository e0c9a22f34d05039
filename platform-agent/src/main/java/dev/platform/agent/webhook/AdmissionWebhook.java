package dev.platform.agent.webhook;

import dev.platform.agent.cluster.JobKind;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Base64;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Answers AdmissionReviews (admission.k8s.io/v1) at Kueue's paths, one mutating and one validating path per
 * {@link JobKind}. It has no side effects (the webhook configurations say {@code sideEffects: None}): a dry-run
 * review gets the same answer, so {@code kubectl apply --dry-run=server} shows what a real apply would store,
 * and is neither counted nor logged.
 */
public class AdmissionWebhook {

    private static final Logger log = LoggerFactory.getLogger(AdmissionWebhook.class);

    private final JobAdmission rules;
    private final JsonMapper json;
    private final MeterRegistry registry;

    public AdmissionWebhook(ManagedJobs managed, JsonMapper json, MeterRegistry registry) {
        this.rules = new JobAdmission(managed);
        this.json = json;
        this.registry = registry;
    }

    /** What a path serves: a kind's defaulting or its validation. */
    record Endpoint(JobKind kind, boolean mutating) {
        String path() {
            return mutating ? kind.mutatePath() : kind.validatePath();
        }
    }

    static Optional<Endpoint> endpoint(String path) {
        for (JobKind kind : JobKind.values()) {
            if (kind.mutatePath().equals(path)) {
                return Optional.of(new Endpoint(kind, true));
            }
            if (kind.validatePath().equals(path)) {
                return Optional.of(new Endpoint(kind, false));
            }
        }
        return Optional.empty();
    }

    /**
     * The AdmissionReview answering {@code body}.
     *
     * @throws IllegalArgumentException for a body that is no AdmissionReview request, or one of a kind this path
     *                                  does not review (a webhook configuration that points the wrong kind here)
     */
    byte[] review(Endpoint endpoint, byte[] body) {
        AdmissionRequest request = AdmissionRequest.of(json.readTree(body));
        JobKind kind = JobKind.of(request.group(), request.version(), request.kind())
                .filter(endpoint.kind()::equals)
                .orElseThrow(() -> new IllegalArgumentException(endpoint.path() + " reviews "
                        + endpoint.kind().group() + "/" + endpoint.kind().version() + " " + endpoint.kind().kind()
                        + ", not " + request.group() + "/" + request.version() + " " + request.kind()));
        AdmissionDecision decision = endpoint.mutating() ? rules.mutate(kind, request) : rules.validate(kind, request);
        if (!request.dryRun()) {
            record(endpoint, request, decision);
        }
        return json.writeValueAsBytes(answer(kind, request, decision));
    }

    private void record(Endpoint endpoint, AdmissionRequest request, AdmissionDecision decision) {
        Counter.builder("platform.agent.webhook.reviews")
                .description("AdmissionReviews answered, by kind, webhook and outcome (dry runs not counted)")
                .tag("kind", endpoint.kind().kind())
                .tag("webhook", endpoint.mutating() ? "mutating" : "validating")
                .tag("operation", request.operation().name())
                .tag("outcome", decision.outcome().name().toLowerCase())
                .register(registry).increment();
        switch (decision.outcome()) {
            case SUSPENDED -> log.info("{} {}/{} created: suspended until the platform admits it", endpoint.kind().kind(),
                    request.namespace(), request.name());
            case DENIED -> log.info("{} {}/{} {} refused: {}", endpoint.kind().kind(), request.namespace(),
                    request.name(), request.operation(), FieldError.aggregate(decision.errors()));
            case ALLOWED, UNMANAGED -> log.debug("{} {}/{} {}: {}", endpoint.kind().kind(), request.namespace(),
                    request.name(), request.operation(), decision.outcome());
        }
    }

    private ObjectNode answer(JobKind kind, AdmissionRequest request, AdmissionDecision decision) {
        ObjectNode review = json.createObjectNode();
        review.put("apiVersion", "admission.k8s.io/v1");
        review.put("kind", "AdmissionReview");
        ObjectNode response = review.putObject("response");
        response.put("uid", request.uid());
        response.put("allowed", decision.outcome() != AdmissionDecision.Outcome.DENIED);
        if (!decision.patch().isEmpty()) {
            ArrayNode patch = json.createArrayNode();
            decision.patch().forEach(patch::add);
            response.put("patchType", "JSONPatch");
            response.put("patch", Base64.getEncoder().encodeToString(json.writeValueAsBytes(patch)));
        }
        if (!decision.errors().isEmpty()) {
            response.set("status", invalid(kind, request, decision));
        }
        return review;
    }

    /** apimachinery's {@code NewInvalid}: 422, reason Invalid, one cause per field error. */
    private ObjectNode invalid(JobKind kind, AdmissionRequest request, AdmissionDecision decision) {
        String qualifiedKind = kind.kind() + "." + kind.group();
        ObjectNode status = json.createObjectNode();
        status.putObject("metadata");
        status.put("status", "Failure");
        status.put("message", qualifiedKind + " \"" + request.name() + "\" is invalid: "
                + FieldError.aggregate(decision.errors()));
        status.put("reason", "Invalid");
        ObjectNode details = status.putObject("details");
        details.put("name", request.name());
        details.put("group", kind.group());
        details.put("kind", kind.kind());
        ArrayNode causes = details.putArray("causes");
        for (FieldError error : decision.errors()) {
            ObjectNode cause = causes.addObject();
            cause.put("reason", error.type().reason());
            cause.put("message", error.body());
            cause.put("field", error.field());
        }
        status.put("code", 422);
        return status;
    }
}
