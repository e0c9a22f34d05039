package dev.platform.scheduler.scenario;

import dev.platform.scheduler.testsupport.PlatformIntegrationTest;
import dev.platform.scheduler.testsupport.TestDatabase;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.springframework.test.context.TestPropertySource;

import java.util.Map;
import java.util.stream.Stream;

import static dev.platform.scheduler.testsupport.YamlTree.map;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scenario files with an {@code admissionFairSharing} block, replayed as {@link ScenarioRestTest} does.
 * Admission fair sharing's settings are global, so these run in a context of their own (with a database of its own
 * on the same server, as {@link FairSharingScenarioRestTest}); every file must name the settings this context has.
 */
@PlatformIntegrationTest
@TestPropertySource(properties = {
        "platform.scheduler.admission-fair-sharing.usage-half-life-time=1h",
        "platform.scheduler.admission-fair-sharing.usage-sampling-interval=5m",
        "platform.scheduler.admission-fair-sharing.resource-weights[google.com/tpu]=8",
        TestDatabase.DATABASE_PROPERTY + "=admission_fair_sharing"})
class AdmissionFairSharingScenarioRestTest extends ScenarioRestTest {

    private static final Map<String, Object> SETTINGS = Map.of("usageHalfLifeTime", "1h",
            "usageSamplingInterval", "5m", "resourceWeights", Map.of("google.com/tpu", 8));

    @Override
    @TestFactory
    Stream<DynamicTest> scenarios() {
        return replay(ScenarioFile.all().stream().filter(ScenarioFile::admissionFairSharing).peek(s ->
                assertThat(map(s.doc().get("admissionFairSharing"))).as(s.file() + ": the settings of this context")
                        .isEqualTo(SETTINGS)));
    }
}
