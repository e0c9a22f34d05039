package dev.platform.scheduler.scheduling;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * One active scheduler (design §2): the leader holds a session-level PostgreSQL advisory lock on
 * a connection of its own, and on taking leadership bumps the leader epoch. Every decision
 * transaction checks that epoch ({@link DecisionWriter}), so a deposed leader cannot commit:
 * when its connection dies the lock is gone, the next leader bumps the epoch, and the old
 * leader's next commit fails the check.
 */
class SchedulerLeadership {

    private static final Logger log = LoggerFactory.getLogger(SchedulerLeadership.class);
    /** "schedule" in ASCII. */
    static final long LEADER_LOCK = 0x7363686564756c65L;

    private final DataSource dataSource;
    private final String holder;
    private Connection lockConnection;
    private long epoch;

    SchedulerLeadership(DataSource dataSource, String holder) {
        this.dataSource = dataSource;
        this.holder = holder;
    }

    /** Tries to become leader; on success the epoch is bumped and returned by {@link #epoch()}. */
    boolean tryAcquire() {
        Connection connection = null;
        try {
            connection = dataSource.getConnection();
            connection.setAutoCommit(true);
            if (!tryLock(connection)) {
                connection.close();
                return false;
            }
            try (PreparedStatement bump = connection.prepareStatement("""
                    INSERT INTO scheduler_leader (id, epoch, holder) VALUES (1, 1, ?)
                    ON CONFLICT (id) DO UPDATE SET epoch = scheduler_leader.epoch + 1, holder = EXCLUDED.holder,
                                                   acquired_at = now()
                    RETURNING epoch""")) {
                bump.setString(1, holder);
                try (ResultSet rs = bump.executeQuery()) {
                    rs.next();
                    epoch = rs.getLong(1);
                }
            }
            lockConnection = connection;
            log.info("{} is the scheduling leader, epoch {}", holder, epoch);
            return true;
        } catch (SQLException e) {
            closeQuietly(connection);
            log.warn("could not try for scheduling leadership: {}", e.getMessage());
            return false;
        }
    }

    /** Whether the lock is still held: its connection is alive. */
    boolean holds() {
        try {
            return lockConnection != null && lockConnection.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    long epoch() {
        return epoch;
    }

    String holder() {
        return holder;
    }

    /** Gives leadership up; the lock goes with the connection. */
    void release() {
        if (lockConnection != null) {
            log.info("{} gives up scheduling leadership (epoch {})", holder, epoch);
        }
        closeQuietly(lockConnection);
        lockConnection = null;
    }

    private static boolean tryLock(Connection connection) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            lock.setLong(1, LEADER_LOCK);
            try (ResultSet rs = lock.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /** Unlocks before the connection goes back to the pool: a pooled session must not keep the lock. */
    private static void closeQuietly(Connection connection) {
        if (connection == null) {
            return;
        }
        try (connection; PreparedStatement unlock = connection.prepareStatement("SELECT pg_advisory_unlock_all()")) {
            unlock.execute();
        } catch (SQLException e) {
            log.debug("closing the leadership connection failed", e);
        }
    }
}
