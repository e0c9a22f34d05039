package dev.platform.agent.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.CommandType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkloadLanesTest {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final List<String> started = new CopyOnWriteArrayList<>();
    private final List<String> finished = new CopyOnWriteArrayList<>();
    private final List<String> interrupted = new CopyOnWriteArrayList<>();
    /** Commands that run until released (or interrupted); the others finish at once. */
    private final Map<Long, CountDownLatch> held = new ConcurrentHashMap<>();
    /** Commands whose result the scheduler records only when the test completes it; the others' at once. */
    private final Map<Long, CompletableFuture<Boolean>> unrecorded = new ConcurrentHashMap<>();
    private final WorkloadLanes lanes = new WorkloadLanes(2, PATIENCE,
            command -> run(command) ? unrecorded.getOrDefault(command.id(), CompletableFuture.completedFuture(true))
                    : CompletableFuture.completedFuture(false));

    @AfterEach
    void close() {
        lanes.close();
    }

    @Test
    void aCommandInProgressHoldsUpOnlyTheLaterCommandsOfItsWorkload() {
        CountDownLatch stop = hold(1);

        lanes.submit(command(1, "a"));
        lanes.submit(command(2, "a"));
        lanes.submit(command(3, "b"));
        lanes.submit(command(4, "b"));

        await().atMost(PATIENCE).until(() -> finished.containsAll(List.of("3", "4")));
        assertThat(started).doesNotContain("2");
        assertThat(finished).containsExactly("3", "4");

        stop.countDown();

        await().atMost(PATIENCE).until(() -> finished.size() == 4);
        assertThat(finished).containsSubsequence("1", "2").containsSubsequence("3", "4");
    }

    @Test
    void aResultOnItsWayHoldsUpItsWorkloadButNoWorker() {
        CompletableFuture<Boolean> recorded = new CompletableFuture<>();
        unrecorded.put(1L, recorded);
        unrecorded.put(3L, new CompletableFuture<>());

        lanes.submit(command(1, "a"));
        lanes.submit(command(2, "a"));
        lanes.submit(command(3, "b"));
        lanes.submit(command(4, "c"));
        lanes.submit(command(5, "d"));

        // two workers, two results not recorded: the other workloads' commands still run
        await().atMost(PATIENCE).until(() -> finished.containsAll(List.of("1", "3", "4", "5")));
        assertThat(started).doesNotContain("2");

        recorded.complete(true);

        await().atMost(PATIENCE).until(() -> finished.contains("2"));
        assertThat(finished).containsSubsequence("1", "2");
    }

    @Test
    void closingInterruptsTheCommandsInProgressAndWaitsForThem() {
        hold(1);
        hold(2);
        lanes.submit(command(1, "a"));
        lanes.submit(command(2, "b"));
        lanes.submit(command(3, "a"));
        await().atMost(PATIENCE).until(() -> started.size() == 2);

        lanes.close();

        assertThat(interrupted).containsExactlyInAnyOrder("1", "2");
        assertThat(started).doesNotContain("3");
        assertThat(finished).isEmpty();
    }

    private CountDownLatch hold(long id) {
        CountDownLatch latch = new CountDownLatch(1);
        held.put(id, latch);
        return latch;
    }

    private boolean run(AgentCommand command) {
        String id = Long.toString(command.id());
        started.add(id);
        CountDownLatch latch = held.get(command.id());
        if (latch != null) {
            try {
                latch.await();
            } catch (InterruptedException e) {
                interrupted.add(id);
                Thread.currentThread().interrupt();
                return false;
            }
        }
        finished.add(id);
        return true;
    }

    private static AgentCommand command(long id, String workloadUid) {
        return new AgentCommand(id, CommandType.STOP, workloadUid, "default", "job-" + workloadUid, null, null);
    }
}
