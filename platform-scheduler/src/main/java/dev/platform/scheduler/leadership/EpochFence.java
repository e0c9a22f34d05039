package dev.platform.scheduler.leadership;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The check every decision transaction makes first: its leader epoch is still the current one.
 * {@code FOR SHARE} holds a new leader's epoch bump until this transaction ends, so decisions of
 * the old leader are either committed before the new leader loads its state or not at all.
 */
@Component
public class EpochFence {

    private final JdbcClient jdbc;

    public EpochFence(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public void check(long epoch) {
        Long current = jdbc.sql("SELECT epoch FROM scheduler_leader WHERE id = 1 FOR SHARE").query(Long.class)
                .optional().orElse(null);
        if (current == null || current != epoch) {
            throw new LeadershipLost(epoch, current);
        }
    }
}
