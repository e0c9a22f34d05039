package dev.platform.agent.simulation;

import dev.platform.agent.Agent;
import dev.platform.agent.cluster.ClusterNode;
import dev.platform.agent.cluster.ClusterPod;
import dev.platform.api.agent.ProvisioningRequestReport;
import dev.platform.api.agent.ProvisioningRequestSpec;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where a simulated cluster keeps its state between runs of the agent, as a real cluster outlives its agent: nodes
 * (so a failed pool stays failed), JobSets and their pods with when each finishes. Each change is written to a file
 * beside it, flushed to disk and moved over it in one step, so a {@code kill -9} at any moment leaves the last state
 * or the one before, never half of one.
 */
public final class SimulatedClusterFile {

    /** The whole state, as written; {@code requests} absent from a file of a version before ProvisioningRequests. */
    record State(List<ClusterNode> nodes, List<ObjectNode> jobSets, List<Pod> pods, long podCounter,
                 List<Request> requests) {
        State {
            requests = requests == null ? List.of() : List.copyOf(requests);
        }
    }

    /**
     * A ProvisioningRequest as the simulated autoscaler holds it: when it is due (null: its class is not served),
     * its conditions and the node pools provisioned for it.
     */
    record Request(ProvisioningRequestSpec spec, Instant dueAt, List<ProvisioningRequestReport.Condition> conditions,
                   List<String> pools) {
    }

    /** A pod, the JobSet it belongs to ({@code namespace/name}) and when it finishes (null: it runs until stopped). */
    record Pod(ClusterPod pod, String jobSetKey, Instant finishesAt) {
    }

    private final Path file;
    private final JsonMapper json = Agent.json();

    /** The state of cluster {@code clusterName} in directory {@code directory}. */
    public SimulatedClusterFile(Path directory, String clusterName) {
        this.file = directory.toAbsolutePath().normalize().resolve("simulated-cluster-" + clusterName + ".json");
    }

    public Path path() {
        return file;
    }

    /** The state last written; empty when the cluster has never run with this directory. */
    Optional<State> read() {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(json.readValue(Files.readAllBytes(file), State.class));
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("the simulated cluster's state in " + file + " cannot be read (" + e.getMessage()
                    + "); move the file away to start the cluster afresh", e);
        }
    }

    void write(State state) {
        Path next = file.resolveSibling(file.getFileName() + ".next");
        try {
            Files.createDirectories(file.getParent());
            try (FileChannel channel = FileChannel.open(next, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                channel.write(ByteBuffer.wrap(json.writeValueAsBytes(state)));
                channel.force(true);
            }
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            try (FileChannel directory = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
                directory.force(true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the simulated cluster's state in " + file, e);
        }
    }
}
