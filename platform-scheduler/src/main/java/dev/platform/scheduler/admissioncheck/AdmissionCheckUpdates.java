package dev.platform.scheduler.admissioncheck;

import dev.platform.scheduler.config.AdmissionCheckConfigs;
import dev.platform.scheduler.core.admissioncheck.AdmissionCheckState;
import dev.platform.scheduler.core.admissioncheck.CheckState;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadService;
import dev.platform.scheduler.workload.WorkloadStore;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * An admission check's controller sets the check's state on a workload, as a Kueue controller patches
 * {@code status.admissionChecks}: Pending, Ready, Retry (with how long to wait before the workload queues again) or
 * Rejected. The checks the platform decides itself ({@code kueue.x-k8s.io/provisioning-request}) follow their
 * ProvisioningRequests and are refused here. The state is written as sent; the scheduling loop acts on it.
 */
@Service
public class AdmissionCheckUpdates {

    private final WorkloadStore store;
    private final WorkloadChecks checks;
    private final AdmissionCheckConfigs configs;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    AdmissionCheckUpdates(WorkloadStore store, WorkloadChecks checks, AdmissionCheckConfigs configs,
                          ApplicationEventPublisher events, Clock clock) {
        this.store = store;
        this.checks = checks;
        this.configs = configs;
        this.events = events;
        this.clock = clock;
    }

    /** The body of a check update: {@code state}, and optionally {@code message} and {@code requeueAfterSeconds}. */
    public record CheckUpdate(String state, String message, Integer requeueAfterSeconds) {
    }

    @Transactional
    public WorkloadRow set(String namespace, String name, String check, CheckUpdate update, String actor) {
        WorkloadRow workload = store.find(namespace, name)
                .orElseThrow(() -> Refusal.notFound("Workload", namespace + "/" + name));
        CheckState state = Arrays.stream(CheckState.values()).filter(s -> s.name().equals(update.state()))
                .findFirst().orElseThrow(() -> Refusal.malformed("state must be one of "
                        + Arrays.toString(CheckState.values()) + ", not " + update.state()));
        if (update.requeueAfterSeconds() != null && update.requeueAfterSeconds() < 0) {
            throw Refusal.malformed("requeueAfterSeconds must be 0 or more");
        }
        if (configs.admissionCheck(check).filter(a -> a.provisioning()).isPresent()) {
            throw Refusal.conflict("admission check " + check + " is decided by the platform from its"
                    + " ProvisioningRequests; its state cannot be set", List.of());
        }
        AdmissionCheckState current = checks.lock(workload.uid(), check).orElseThrow(() -> Refusal.notFound(
                "AdmissionCheck", check + " of workload " + namespace + "/" + name));
        Instant now = clock.instant();
        AdmissionCheckState next = current.to(state, update.message(),
                state == CheckState.Retry ? update.requeueAfterSeconds() : null, now);
        checks.write(workload.uid(), next);
        events.publishEvent(new WorkloadService.WorkloadsChanged());
        return workload;
    }
}
