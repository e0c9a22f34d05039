package dev.platform.scheduler.core.scenario;

import dev.platform.scheduler.core.forecast.Forecaster;
import dev.platform.scheduler.core.forecast.RuntimeBasis;
import dev.platform.scheduler.core.forecast.RuntimeEstimate;
import dev.platform.scheduler.core.forecast.RuntimeModel;
import dev.platform.scheduler.core.forecast.TreeForecast;
import dev.platform.scheduler.core.forecast.WorkloadForecast;
import dev.platform.scheduler.core.model.Workload;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.platform.scheduler.testsupport.YamlTree.map;
import static dev.platform.scheduler.testsupport.YamlTree.str;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every file of {@code scenarios/forecast} (format in the scenarios README): the scenario's state is
 * forecast, each cohort tree on its own copy, with the runtimes the file gives, and the forecasts are compared with
 * the file's expectations, times written relative to the scenario's present.
 */
class ForecastScenarioTest {

    static Stream<Path> scenarios() throws Exception {
        return Scenario.files("/scenarios/forecast");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void forecast(Path file) throws IOException {
        Scenario s = Scenario.load(file);
        Map<String, Object> forecast = map(s.doc.get("forecast"));
        Object horizon = forecast.get("horizon");
        Forecaster forecaster = new Forecaster(runtimes(s), horizon == null ? Duration.ofDays(7)
                : Scenario.duration(str(horizon)));
        Map<String, WorkloadForecast> forecasts = new HashMap<>();
        s.state.cohortTrees().values().forEach(queues -> {
            TreeForecast tree = forecaster.forecast(s.state.copyOf(queues, s.clock), queues, Scenario.NOW,
                    Duration.ofSeconds(30));
            assertThat(tree.outOfTime()).as(s.file + ": forecast within its time budget").isFalse();
            forecasts.putAll(tree.forecasts());
        });
        String where = s.file + " (" + s.name() + "): ";
        map(forecast.get("expect")).forEach((name, spec) -> {
            Map<String, Object> e = map(spec);
            WorkloadForecast f = forecasts.get(name);
            assertThat(f).as(where + "forecast of " + name + " among " + forecasts.keySet()).isNotNull();
            assertThat(f.basis().name()).as(where + name + " basis (" + f + ")").isEqualTo(e.get("basis"));
            assertThat(f.estimatedAdmissionAt()).as(where + name + " estimated admission (" + f + ")")
                    .isEqualTo(at(e.get("at")));
            if (e.containsKey("p10")) {
                assertThat(f.p10()).as(where + name + " p10 (" + f + ")").isEqualTo(at(e.get("p10")));
            }
            if (e.containsKey("p90")) {
                assertThat(f.p90()).as(where + name + " p90 (" + f + ")").isEqualTo(at(e.get("p90")));
            }
            if (e.containsKey("message")) {
                assertThat(f.message()).as(where + name + " message").contains(str(e.get("message")));
            }
        });
    }

    /** Times in the file are offsets from the scenario's present; absent means no estimate. */
    private static Instant at(Object offset) {
        return offset == null ? null : Scenario.NOW.plus(Scenario.duration(str(offset)));
    }

    /**
     * The file's {@code runtimes}: per workload name, one duration (an exact runtime) or a list of observed
     * runtimes, read as the history of workloads like it; a workload without either has its maximum execution time
     * as its only bound, or an unknown runtime.
     */
    private static RuntimeModel runtimes(Scenario s) {
        Map<String, Object> given = map(s.doc.get("runtimes"));
        return (Workload w, String clusterQueue) -> {
            Object r = given.get(w.name());
            if (r == null) {
                return w.maximumExecutionTime() == null ? RuntimeEstimate.unknown()
                        : RuntimeEstimate.maximumOnly(w.maximumExecutionTime());
            }
            List<?> samples = r instanceof List<?> list ? list : List.of(r);
            long[] millis = samples.stream().mapToLong(x -> Scenario.duration(str(x)).toMillis()).toArray();
            return RuntimeEstimate.fromHistory(RuntimeBasis.LocalQueueHistory, millis, w.maximumExecutionTime());
        };
    }
}
