package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.commit.DecisionCommitter;
import dev.platform.scheduler.leadership.LeadershipLost;
import dev.platform.scheduler.testsupport.DatabaseCleaner;
import dev.platform.scheduler.testsupport.PlatformIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.Duration;
import java.util.List;

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
    DecisionCommitter committer;

    @BeforeEach
    void clean() {
        DatabaseCleaner.clean(jdbc, loop);
    }

    @Test
    void aDeposedLeaderCannotCommitAndTheLoopTakesLeadershipBack() {
        await().atMost(Duration.ofSeconds(20)).until(loop::isLeader);
        long current = jdbc.sql("SELECT epoch FROM scheduler_leader").query(Long.class).single();
        assertThatThrownBy(() -> committer.commit(current - 1, List.of()))
                .isInstanceOf(LeadershipLost.class)
                .hasMessageContaining("no longer current");

        jdbc.sql("UPDATE scheduler_leader SET epoch = epoch + 1, holder = 'someone-else'").update();
        loop.wake();
        assertThatThrownBy(() -> committer.commit(current, List.of()))
                .isInstanceOf(LeadershipLost.class);
    }
}
