package dev.platform.scheduler.scenario;

import dev.platform.scheduler.testsupport.AdmissionFairSharingContext;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.Map;
import java.util.stream.Stream;

import static dev.platform.scheduler.testsupport.YamlTree.map;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scenario files with an {@code admissionFairSharing} block, replayed as {@link ScenarioRestTest} does.
 * Admission fair sharing's settings are global, so these run in a context of their own; every file must name the
 * settings this context has.
 */
@AdmissionFairSharingContext
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
