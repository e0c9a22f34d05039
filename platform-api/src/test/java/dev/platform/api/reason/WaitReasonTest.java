package dev.platform.api.reason;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A stored pending-reason code read back as the reason it names. */
class WaitReasonTest {

    @Test
    void aCodeNamesAPendingReasonBeforeAnEvictionReasonOfTheSameName() {
        assertThat(WaitReason.of("WaitingForQuota")).isEqualTo(PendingReason.WaitingForQuota);
        assertThat(WaitReason.of("Deactivated")).isEqualTo(PendingReason.Deactivated);
        assertThat(WaitReason.of("PodsReadyTimeout")).isEqualTo(EvictionReason.PodsReadyTimeout);
        assertThat(WaitReason.of(null)).isNull();
    }

    @Test
    void aCodeOfNeitherVocabularyIsRefused() {
        assertThatThrownBy(() -> WaitReason.of("NoSuchReason")).isInstanceOf(IllegalArgumentException.class);
    }
}
