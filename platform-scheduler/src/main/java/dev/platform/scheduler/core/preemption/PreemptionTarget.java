package dev.platform.scheduler.core.preemption;

import dev.platform.scheduler.core.AdmittedWorkload;
import dev.platform.scheduler.core.PreemptionReason;

/** A victim chosen for a preemptor, with the reason Kueue would give. */
public record PreemptionTarget(AdmittedWorkload victim, PreemptionReason reason) {
}
