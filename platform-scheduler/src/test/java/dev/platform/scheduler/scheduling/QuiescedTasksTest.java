package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.leadership.LeadershipLost;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QuiescedTasksTest {

    private final QuiescedTasks tasks = new QuiescedTasks();
    private final List<String> ran = new ArrayList<>();

    @Test
    void queuedWorkRunsBeforeOneRebuildAndCompletesAfterIt() {
        CompletableFuture<Void> first = tasks.add(() -> ran.add("first"));
        CompletableFuture<Void> second = tasks.add(() -> ran.add("second"));
        assertThat(first).isNotDone();

        tasks.runAll(() -> ran.add("rebuild"));

        assertThat(ran).containsExactly("first", "second", "rebuild");
        assertThat(first).isCompleted();
        assertThat(second).isCompleted();
    }

    @Test
    void nothingQueuedMeansNoRebuild() {
        tasks.runAll(() -> ran.add("rebuild"));

        assertThat(ran).isEmpty();
    }

    @Test
    void aFailedTaskFailsAloneAndTheOthersStillRebuild() {
        CompletableFuture<Void> failing = tasks.add(() -> {
            throw new IllegalStateException("truncate refused");
        });
        CompletableFuture<Void> fine = tasks.add(() -> ran.add("fine"));

        tasks.runAll(() -> ran.add("rebuild"));

        assertThat(failing).isCompletedExceptionally();
        assertThat(fine).isCompleted();
        assertThat(ran).containsExactly("fine", "rebuild");
    }

    @Test
    void aFailedRebuildFailsTheTasksThatRanBeforeIt() {
        CompletableFuture<Void> task = tasks.add(() -> ran.add("task"));

        assertThatThrownBy(() -> tasks.runAll(() -> {
            throw new IllegalStateException("database gone");
        })).hasMessage("database gone");

        assertThat(task).isCompletedExceptionally();
    }

    @Test
    void aRebuildThatFindsLeadershipLostCompletesTheTasksAndLetsTheLoopStepDown() {
        CompletableFuture<Void> task = tasks.add(() -> ran.add("task"));

        assertThatThrownBy(() -> tasks.runAll(() -> {
            throw new LeadershipLost(1, 2L);
        })).isInstanceOf(LeadershipLost.class);

        assertThat(task).isCompleted();
        assertThat(task).isNotCompletedExceptionally();
    }

    @Test
    void withoutALoopTheWorkRunsAtOnce() {
        CompletableFuture<Void> done = QuiescedTasks.runNow(() -> ran.add("now"));

        assertThat(ran).containsExactly("now");
        assertThat(done).isCompleted();
    }
}
