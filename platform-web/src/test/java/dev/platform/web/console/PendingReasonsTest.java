package dev.platform.web.console;

import dev.platform.api.reason.EvictionReason;
import dev.platform.api.reason.PendingReason;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Why a workload waits, in words. */
class PendingReasonsTest {

    @Test
    void aPendingReasonIsDescribedAndTheEvictionBehindABackoffIsNamed() {
        assertThat(PendingReasons.describe(PendingReason.WaitingForQuota)).isEqualTo("Waiting for quota to free up");
        assertThat(PendingReasons.describe(EvictionReason.PodsReadyTimeout)).isEqualTo("PodsReadyTimeout");
        assertThat(PendingReasons.describe(null)).isEqualTo("Waiting for the scheduler");
    }
}
