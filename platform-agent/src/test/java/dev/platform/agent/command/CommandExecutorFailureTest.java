package dev.platform.agent.command;

import dev.platform.agent.cluster.KubernetesCluster.ClusterCallException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.UncheckedIOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which failed commands the agent reports as transient: those the API server may answer differently later (no
 * answer, 5xx, 429, 408, a conflict), not those it would refuse the same way (an invalid JobSet, a missing
 * namespace, any other 4xx, or a failure of the agent's own).
 */
class CommandExecutorFailureTest {

    @ParameterizedTest(name = "API server answer {0}: transient {1}")
    @CsvSource({"0, true", "500, true", "503, true", "429, true", "408, true", "409, true",
            "400, false", "403, false", "404, false", "422, false"})
    void anApiServerAnswerIsTransientWhenTheSameCallMaySucceedLater(int status, boolean transientFailure) {
        assertThat(CommandExecutor.isTransient(new ClusterCallException(status, "API server answered " + status, null)))
                .isEqualTo(transientFailure);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"connection, true", "manifest, false"})
    void aBrokenConnectionIsTransientAndAnInvalidManifestIsNot(String kind, boolean transientFailure) {
        RuntimeException failure = kind.equals("connection")
                ? new UncheckedIOException(new IOException("Connection refused"))
                : new IllegalArgumentException("spec.replicatedJobs is required");
        assertThat(CommandExecutor.isTransient(failure)).isEqualTo(transientFailure);
    }
}
