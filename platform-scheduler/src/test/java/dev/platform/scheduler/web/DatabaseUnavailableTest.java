package dev.platform.scheduler.web;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.orm.jpa.JpaSystemException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.TransactionSystemException;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import static org.assertj.core.api.Assertions.assertThat;

/** Which failures are the database going away (503) and which are not (the caller's or a bug). */
class DatabaseUnavailableTest {

    @Test
    void theDatabaseGoingAwayInEveryShapeSeenUnderFaults() {
        TransactionSystemException rollbackFailed = new TransactionSystemException("JDBC rollback failed",
                new SQLException("Connection is closed"));
        rollbackFailed.initApplicationException(new DataAccessResourceFailureException(
                "terminating connection due to administrator command", new SQLException("FATAL", "57P01")));

        assertThat(DatabaseUnavailable.causes(rollbackFailed)).as("found by DatabaseOutageIT").isTrue();
        assertThat(DatabaseUnavailable.causes(new CannotGetJdbcConnectionException("no connection",
                new SQLTransientConnectionException("request timed out after 5000ms")))).isTrue();
        assertThat(DatabaseUnavailable.causes(new IllegalStateException("wrapped",
                new SQLException("I/O error", "08006")))).isTrue();
        assertThat(DatabaseUnavailable.causes(new SQLException("the database system is starting up", "57P03")))
                .isTrue();
        assertThat(DatabaseUnavailable.causes(new JpaSystemException(new org.hibernate.TransactionException(
                "Unable to rollback against JDBC Connection", new SQLException("Connection is closed")))))
                .as("the same rollback through JPA's transaction manager, found by DatabaseOutageIT").isTrue();
    }

    @Test
    void notEveryDatabaseErrorIsAnOutage() {
        assertThat(DatabaseUnavailable.causes(new DataIntegrityViolationException("duplicate key",
                new SQLException("duplicate key", "23505")))).isFalse();
        assertThat(DatabaseUnavailable.causes(new IllegalStateException("a bug"))).isFalse();
    }
}
