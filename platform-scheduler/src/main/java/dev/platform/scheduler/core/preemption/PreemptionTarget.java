package dev.platform.scheduler.core.preemption;

import dev.platform.api.reason.PreemptionReason;
import dev.platform.scheduler.core.model.AdmittedWorkload;

/** A victim chosen for a preemptor, with the reason Kueue would give. */
public record PreemptionTarget(AdmittedWorkload victim, PreemptionReason reason) {
}
