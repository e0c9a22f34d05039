package dev.platform.scheduler.workload;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import java.util.List;

/**
 * The answer to a submission: the workload's status, and the warnings about its manifest (fields accepted
 * but not acted on, unknown fields under {@code fieldValidation=Warn}), a field only when there are some.
 */
public record SubmittedWorkload(@JsonUnwrapped WorkloadStatus status,
                                @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> warnings) {

    public SubmittedWorkload {
        warnings = List.copyOf(warnings);
    }
}
