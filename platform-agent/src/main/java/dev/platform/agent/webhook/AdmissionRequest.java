package dev.platform.agent.webhook;

import tools.jackson.databind.JsonNode;

/**
 * The fields of an {@code admission.k8s.io/v1} AdmissionReview's request that the rules read. {@code object} is
 * the object as it would be stored (after earlier mutating webhooks), {@code oldObject} the stored one on UPDATE.
 */
record AdmissionRequest(String uid, String group, String version, String kind, Operation operation,
                        String namespace, String name, JsonNode object, JsonNode oldObject, boolean dryRun) {

    enum Operation {
        CREATE, UPDATE, DELETE, CONNECT
    }

    /** @throws IllegalArgumentException naming what is missing, for a body that is no AdmissionReview request */
    static AdmissionRequest of(JsonNode review) {
        if (!"admission.k8s.io/v1".equals(review.path("apiVersion").asString(null))
                || !"AdmissionReview".equals(review.path("kind").asString(null))) {
            throw new IllegalArgumentException("expected an admission.k8s.io/v1 AdmissionReview, got apiVersion "
                    + review.path("apiVersion").asString(null) + " kind " + review.path("kind").asString(null));
        }
        JsonNode request = review.path("request");
        String uid = request.path("uid").asString(null);
        if (uid == null) {
            throw new IllegalArgumentException("the AdmissionReview has no request.uid");
        }
        String operation = request.path("operation").asString("");
        Operation parsed;
        try {
            parsed = Operation.valueOf(operation);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("request.operation '" + operation + "' is none of CREATE, UPDATE,"
                    + " DELETE, CONNECT");
        }
        JsonNode kind = request.path("kind");
        JsonNode object = request.path("object");
        String name = request.path("name").asString(null);
        return new AdmissionRequest(uid, kind.path("group").asString(""), kind.path("version").asString(""),
                kind.path("kind").asString(""), parsed, request.path("namespace").asString(null),
                name != null ? name : object.path("metadata").path("name").asString(null), object,
                request.path("oldObject"), request.path("dryRun").asBoolean(false));
    }
}
