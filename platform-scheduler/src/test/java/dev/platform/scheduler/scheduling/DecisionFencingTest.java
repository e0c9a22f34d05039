package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.leadership.LeadershipLost;
import dev.platform.scheduler.testsupport.DatabaseCleaner;
import dev.platform.scheduler.testsupport.PlatformIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** A decision transaction under a stale leader epoch is refused before it writes anything. */
@PlatformIntegrationTest
class DecisionFencingTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    SchedulingLoop loop;

    @Autowired
    DecisionWriter writer;

    @BeforeEach
    void clean() {
        DatabaseCleaner.clean(jdbc, loop);
    }

    @Test
    void aDeposedLeaderCannotCommitAndTheLoopTakesLeadershipBack() {
        await().atMost(Duration.ofSeconds(20)).until(loop::isLeader);
        long current = jdbc.sql("SELECT epoch FROM scheduler_leader").query(Long.class).single();
        CycleResult nothing = new CycleResult(List.of(), List.of(), List.of(), List.of());

        assertThatThrownBy(() -> writer.commit(nothing, Map.of(), current - 1, Map.of()))
                .isInstanceOf(LeadershipLost.class)
                .hasMessageContaining("no longer current");

        jdbc.sql("UPDATE scheduler_leader SET epoch = epoch + 1, holder = 'someone-else'").update();
        loop.wake();
        assertThatThrownBy(() -> writer.commit(nothing, Map.of(), current, Map.of()))
                .isInstanceOf(LeadershipLost.class);
    }
}
