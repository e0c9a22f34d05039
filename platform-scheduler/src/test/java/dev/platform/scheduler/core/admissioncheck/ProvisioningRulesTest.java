package dev.platform.scheduler.core.admissioncheck;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class ProvisioningRulesTest {

    @Test
    void requestsAndTheirPodTemplatesAreNamedAsKueueNamesThem() {
        assertThat(ProvisioningRules.requestName("train", "dws", 2)).isEqualTo("train-dws-2");
        assertThat(ProvisioningRules.podTemplateName("train-dws-2", "workers")).isEqualTo("ppt-train-dws-2-workers");
    }

    @Test
    void aNameLongerThanKubernetesAllowsIsCutAndEndsWithItsHash() {
        String name = ProvisioningRules.requestName("w".repeat(250), "dws", 1);
        assertThat(name).hasSize(253).startsWith("w".repeat(247) + "-").matches(".*-[0-9a-f]{5}");
        assertThat(ProvisioningRules.requestName("w".repeat(250), "dws", 2)).isNotEqualTo(name);
    }

    @Test
    void backoffDoublesUpToItsMaximum() {
        RetryStrategy retry = new RetryStrategy(5, 60, 200);
        assertThat(retry.backoff(1)).isEqualTo(Duration.ofSeconds(60));
        assertThat(retry.backoff(2)).isEqualTo(Duration.ofSeconds(120));
        assertThat(retry.backoff(3)).isEqualTo(Duration.ofSeconds(200));
    }

    /** Kueue's provisioning controller, syncCheckStates: an inactive check and a request that is not needed. */
    @Test
    void beforeAnyRequestAnInactiveCheckSaysSoAndOneWithNothingToProvisionIsReady() {
        Instant reserved = Instant.parse("2026-01-01T10:00:00Z");
        Instant now = reserved.plusSeconds(5);
        AdmissionCheckState pending = AdmissionCheckState.pending("dws", reserved);

        AdmissionCheckState inactive = ProvisioningRules.withoutRequest(pending, false, true, now);
        assertThat(inactive.state()).isEqualTo(CheckState.Pending);
        assertThat(inactive.message()).isEqualTo("the check is not active");
        assertThat(inactive.lastTransitionTime()).as("still Pending since its reservation").isEqualTo(reserved);

        AdmissionCheckState notNeeded = ProvisioningRules.withoutRequest(pending, true, false, now);
        assertThat(notNeeded.state()).isEqualTo(CheckState.Ready);
        assertThat(notNeeded.message()).isEqualTo("the provisioning request is not needed");
        assertThat(notNeeded.lastTransitionTime()).isEqualTo(now);

        assertThat(ProvisioningRules.withoutRequest(pending, true, true, now)).as("its request decides")
                .isEqualTo(pending);
        AdmissionCheckState retry = pending.to(CheckState.Retry, "Retrying after failure: no capacity", 60, now);
        assertThat(ProvisioningRules.withoutRequest(retry, false, false, now)).as("only a Pending check")
                .isEqualTo(retry);
    }
}
