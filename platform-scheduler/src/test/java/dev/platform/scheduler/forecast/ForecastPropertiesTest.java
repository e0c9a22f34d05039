package dev.platform.scheduler.forecast;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ForecastPropertiesTest {

    @Test
    void theRecordOfPastWaitsIsOnByDefaultAndOffWithNoWaits() {
        assertThat(bind(Map.of()).calibration()).isEqualTo(new ForecastProperties.Calibration(100, 20));
        assertThat(bind(Map.of("platform.forecast.calibration.waits", "0")).calibration().waits()).isZero();
    }

    @Test
    void aRecordThatCouldNeverWidenARangeIsRefusedAtStartWithThePropertiesNamed() {
        for (Map<String, String> wrong : List.of(Map.of("platform.forecast.calibration.waits", "-1"),
                Map.of("platform.forecast.calibration.min-waits", "0"),
                Map.of("platform.forecast.calibration.waits", "10", "platform.forecast.calibration.min-waits", "20"))) {
            assertThatThrownBy(() -> bind(wrong)).as(wrong.toString()).isInstanceOf(BindException.class)
                    .rootCause().hasMessageContaining("platform.forecast.calibration: waits must be 0 (no record) or"
                            + " more, and min-waits at least 1 and at most waits");
        }
    }

    private static ForecastProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("platform.forecast", ForecastProperties.class);
    }
}
