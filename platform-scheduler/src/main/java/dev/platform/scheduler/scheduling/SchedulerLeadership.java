package dev.platform.scheduler.scheduling;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * One active scheduler: the leader holds a session-level PostgreSQL advisory lock on
 * a connection of its own, and on taking leadership bumps the leader epoch. Every decision
 * transaction checks that epoch ({@code DecisionCommitter}), so a deposed leader cannot commit:
 * when its connection dies the lock is gone, the next leader bumps the epoch, and the old
 * leader's next commit fails the check.
 * <p>
 * A leader that is alive but stuck (paused by SIGSTOP, a long GC, a hung host) keeps its
 * connection and so the lock. So the leader also renews {@code scheduler_leader.renewed_at} from a
 * thread of its own; a follower that finds the renewal older than the lease ends the holder's
 * database session ({@code pg_terminate_backend}), which frees the lock, and takes over. The old
 * leader, when it wakes, finds its lock connection gone and steps down; anything it tries to
 * commit meanwhile fails the epoch check.
 */
class SchedulerLeadership {

    private static final Logger log = LoggerFactory.getLogger(SchedulerLeadership.class);
    /** "schedule" in ASCII. */
    static final long LEADER_LOCK = 0x7363686564756c65L;

    private final DataSource dataSource;
    private final String holder;
    private final Duration lease;
    private Connection lockConnection;
    private volatile long epoch;
    private ScheduledExecutorService renewal;

    SchedulerLeadership(DataSource dataSource, String holder, Duration lease) {
        this.dataSource = dataSource;
        this.holder = holder;
        this.lease = lease;
    }

    /** Tries to become leader; on success the epoch is bumped and returned by {@link #epoch()}. */
    boolean tryAcquire() {
        Connection connection = null;
        try {
            connection = dataSource.getConnection();
            connection.setAutoCommit(true);
            if (!tryLock(connection)) {
                // the lock goes once the ended session is gone: the next try takes it
                endLeaderPastItsLease(connection);
                connection.close();
                return false;
            }
            try (PreparedStatement bump = connection.prepareStatement("""
                    INSERT INTO scheduler_leader (id, epoch, holder) VALUES (1, 1, ?)
                    ON CONFLICT (id) DO UPDATE SET epoch = scheduler_leader.epoch + 1, holder = EXCLUDED.holder,
                                                   acquired_at = now(), renewed_at = now()
                    RETURNING epoch""")) {
                bump.setString(1, holder);
                try (ResultSet rs = bump.executeQuery()) {
                    rs.next();
                    epoch = rs.getLong(1);
                }
            }
            lockConnection = connection;
            startRenewing();
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
        stopRenewing();
        if (lockConnection != null) {
            log.info("{} gives up scheduling leadership (epoch {})", holder, epoch);
        }
        closeQuietly(lockConnection);
        lockConnection = null;
    }

    /** Renews {@code renewed_at} every fifth of the lease, for as long as this epoch leads. */
    private void startRenewing() {
        stopRenewing();
        long epochRenewed = epoch;
        renewal = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "scheduler-leader-renewal");
            thread.setDaemon(true);
            return thread;
        });
        long period = Math.max(1, lease.toMillis() / 5);
        renewal.scheduleWithFixedDelay(() -> renew(epochRenewed), period, period, TimeUnit.MILLISECONDS);
    }

    private void renew(long epochRenewed) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement renew = connection.prepareStatement(
                     "UPDATE scheduler_leader SET renewed_at = now() WHERE id = 1 AND epoch = ?")) {
            renew.setLong(1, epochRenewed);
            renew.executeUpdate();
        } catch (SQLException e) {
            log.warn("could not renew scheduling leadership (epoch {}): {}", epochRenewed, e.getMessage());
        }
    }

    private void stopRenewing() {
        if (renewal != null) {
            renewal.shutdownNow();
            renewal = null;
        }
    }

    /**
     * When the leader has not renewed within the lease, ends the database session that holds the
     * leadership lock.
     */
    private void endLeaderPastItsLease(Connection connection) throws SQLException {
        try (PreparedStatement stuck = connection.prepareStatement("""
                SELECT l.pid, s.holder, s.epoch, pg_terminate_backend(l.pid) AS ended
                FROM scheduler_leader s, pg_locks l
                WHERE s.id = 1 AND s.renewed_at < now() - make_interval(secs => ?)
                  AND l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
                  AND l.classid = ?::bigint::oid AND l.objid = ?::bigint::oid
                  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())""")) {
            stuck.setDouble(1, lease.toMillis() / 1000.0);
            stuck.setLong(2, LEADER_LOCK >>> 32);
            stuck.setLong(3, LEADER_LOCK & 0xffffffffL);
            try (ResultSet rs = stuck.executeQuery()) {
                if (rs.next() && rs.getBoolean("ended")) {
                    log.warn("{} ended the session of leader {} (epoch {}, backend {}): no renewal within {}",
                            holder, rs.getString("holder"), rs.getLong("epoch"), rs.getInt("pid"), lease);
                }
            }
        }
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
