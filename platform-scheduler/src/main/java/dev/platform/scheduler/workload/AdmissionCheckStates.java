package dev.platform.scheduler.workload;

import dev.platform.scheduler.core.admissioncheck.AdmissionCheckState;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** What the status of a workload shows of its admission checks, read from the feature that keeps them. */
public interface AdmissionCheckStates {

    /** The checks of each of {@code uids} that has any, in name order. */
    Map<UUID, List<AdmissionCheckState>> checks(Collection<UUID> uids);

    /** Of {@code uids}, those whose quota is reserved and who wait for their checks. */
    Set<UUID> awaitingChecks(Collection<UUID> uids);
}
