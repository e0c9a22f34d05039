package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.kubernetes.registry.Objects;
import dev.platform.scheduler.kubernetes.registry.ResourceKind;
import dev.platform.scheduler.kubernetes.registry.Verb;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * POST to a collection: a new object (201), its name generated from {@code generateName} when it has none; a dry
 * run stores nothing; unknown fields as {@code fieldValidation} says.
 */
public final class CreateHandler {

    private static final String NAME_CHARACTERS = "bcdfghjklmnpqrstvwxz2456789";

    private final Resources resources;
    private final Responses responses;
    private final Bodies bodies;

    private final FieldManagers managers;

    CreateHandler(Resources resources, Responses responses, Bodies bodies, FieldManagers managers) {
        this.managers = managers;
        this.resources = resources;
        this.responses = responses;
        this.bodies = bodies;
    }

    public void handle(ApiRequest request, HttpServletRequest http, HttpServletResponse response) throws IOException {
        ResourceKind kind = resources.resolve(request);
        resources.authorize(kind, request, Verb.create);
        Map<String, Object> object = Bodies.matched(bodies.object(bodies.read(http.getInputStream()),
                request.contentType()), kind, request);
        Map<String, Object> metadata = Objects.mapIn(object, "metadata");
        // A review (kubectl auth can-i) is answered, not stored, and has no name.
        boolean stored = !kind.verbs().equals(java.util.Set.of(Verb.create));
        if (stored && (metadata.get("name") == null || "".equals(metadata.get("name")))) {
            Object prefix = metadata.get("generateName");
            if (prefix == null || "".equals(prefix)) {
                throw StatusError.invalid(kind, "", java.util.List.of(new StatusError.Cause("FieldValueRequired",
                        "Required value: name or generateName is required", "metadata.name")));
            }
            metadata.put("name", prefix + randomSuffix());
        }
        String name = String.valueOf(metadata.getOrDefault("name", ""));
        ObjectStore.Written written;
        try {
            written = kind.store().create(kind.inVersion(object, kind.preferredVersion()),
                    new ObjectStore.WriteOptions(request.dryRun(), request.fieldValidation(),
                            request.parameter("fieldManager")), request.caller());
        } catch (RuntimeException e) {
            throw Resources.translate(e, kind, request, name);
        }
        Map<String, Object> created = kind.inVersion(written.object(), request.version());
        if (stored && !request.dryRun()) {
            created = managers.record(kind, request.fieldManager(), "Update", kind.apiVersion(request.version()), null,
                    null, created);
        }
        responses.write(response, 201, created, written.warnings());
    }

    /** Five characters, as the API server's name generator appends them. */
    private static String randomSuffix() {
        StringBuilder suffix = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            suffix.append(NAME_CHARACTERS.charAt(ThreadLocalRandom.current().nextInt(NAME_CHARACTERS.length())));
        }
        return suffix.toString();
    }
}
