package dev.platform.scheduler.core.admissioncheck;

import org.junit.jupiter.api.Test;

import java.time.Duration;

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
}
