package dev.platform.scheduler.web;

import org.hibernate.TransactionException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * Tells a failure of the database itself (stopped, restarting, its connections cut, the pool
 * unable to get one) from a bug: the first is a 503 the client retries, the second a 500.
 * PostgreSQL's SQLSTATE classes 08 (connection exception) and 57P (operator intervention: the
 * server shutting down, {@code pg_terminate_backend}) are the database going away, and so is a
 * commit or rollback that fails on its connection.
 */
final class DatabaseUnavailable {

    /** What the 503's {@code Retry-After} says: about the time a restarted PostgreSQL takes to accept connections. */
    static final int RETRY_AFTER_SECONDS = 5;

    private DatabaseUnavailable() {
    }

    static boolean causes(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DataAccessResourceFailureException || t instanceof TransientDataAccessResourceException
                    || t instanceof CannotCreateTransactionException
                    || t instanceof SQLTransientConnectionException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P"))) {
                return true;
            }
            // a commit or rollback that fails on its connection: the database went away (the
            // application exception it overrides, a session the server ended, is not its cause)
            if (t instanceof TransactionSystemException tx && tx.getCause() instanceof SQLException) {
                return true;
            }
            // the same through JPA's transaction manager (Hibernate's "Unable to rollback against JDBC Connection")
            if (t instanceof TransactionException tx && tx.getCause() instanceof SQLException) {
                return true;
            }
        }
        return false;
    }

    /** One line for the log: the outermost message and the SQL state, not a stack trace per request. */
    static String describe(Throwable failure) {
        String state = null;
        for (Throwable t = failure; t != null && state == null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                state = sql.getSQLState();
            }
        }
        return failure.getClass().getSimpleName() + ": " + failure.getMessage() + (state == null ? "" : " [SQLSTATE " + state + "]");
    }
}
