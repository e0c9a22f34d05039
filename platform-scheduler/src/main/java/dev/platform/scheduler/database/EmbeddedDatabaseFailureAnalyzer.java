package dev.platform.scheduler.database;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports an {@link EmbeddedDatabaseStartupException} as its description and action, without a stack trace. */
class EmbeddedDatabaseFailureAnalyzer extends AbstractFailureAnalyzer<EmbeddedDatabaseStartupException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, EmbeddedDatabaseStartupException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
