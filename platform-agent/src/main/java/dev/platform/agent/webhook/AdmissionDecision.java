package dev.platform.agent.webhook;

import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/** What a review answers: allowed as it is, allowed with a JSONPatch, or refused with field errors. */
record AdmissionDecision(Outcome outcome, List<ObjectNode> patch, List<FieldError> errors) {

    /** What became of a reviewed object, as counted in {@code platform.agent.webhook.reviews}. */
    enum Outcome {
        /** Suspended for the platform to admit (a patch). */
        SUSPENDED,
        /** Allowed as it is: already suspended, the platform's own, or an allowed update. */
        ALLOWED,
        /** Not the platform's: no queue name, outside the managed namespaces. */
        UNMANAGED,
        /** Refused with field errors. */
        DENIED
    }

    AdmissionDecision {
        patch = List.copyOf(patch);
        errors = List.copyOf(errors);
    }

    static AdmissionDecision allowed() {
        return new AdmissionDecision(Outcome.ALLOWED, List.of(), List.of());
    }

    static AdmissionDecision unmanaged() {
        return new AdmissionDecision(Outcome.UNMANAGED, List.of(), List.of());
    }

    static AdmissionDecision patched(List<ObjectNode> patch) {
        return patch.isEmpty() ? allowed() : new AdmissionDecision(Outcome.SUSPENDED, patch, List.of());
    }

    static AdmissionDecision refused(List<FieldError> errors) {
        return errors.isEmpty() ? allowed() : new AdmissionDecision(Outcome.DENIED, List.of(), errors);
    }
}
