package dev.platform.scheduler.security;

import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/** An authenticated request is timed as an HTTP server request, and nothing of Spring Security's is observed. */
class SecurityObservationsTest extends PlatformApplicationTest {

    @Autowired
    MeterRegistry meters;

    @Test
    void theFilterChainIsNotObservedAndTheRequestMetricsStay() {
        assertThat(api.get("/api/v1/me").status()).isEqualTo(200);

        assertThat(meters.find("http.server.requests").tag("uri", "/api/v1/me").timer()).isNotNull();
        assertThat(meters.getMeters()).extracting(meter -> meter.getId().getName())
                .noneMatch(name -> name.startsWith("spring.security"));
    }
}
