package dev.platform.scheduler.web;

import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.ResourceFlavorManifest;
import dev.platform.scheduler.testsupport.ControllerSliceTest;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.http.MediaType;
import org.springframework.jdbc.CannotGetJdbcConnectionException;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * PostgreSQL unreachable while a handler reads: a console page answers 503 with a short page and
 * {@code Retry-After}, the REST API 503 problem JSON with {@code Retry-After}; neither shows a stack trace.
 * Any other failure of a page keeps Spring Boot's handling.
 */
class DatabaseOutageResponsesTest extends ControllerSliceTest {

    /** What Hikari throws when no connection comes within its timeout, as the JDBC templates wrap it. */
    private static CannotGetJdbcConnectionException noConnection() {
        return new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection",
                new SQLTransientConnectionException("HikariPool-1 - Connection is not available, request timed out"
                        + " after 5000ms", "08001", new SQLException("Connection to localhost:5432 refused", "08001")));
    }

    @Test
    void aConsolePageAnswers503WithAHumanPage() throws Exception {
        given(queueQueries.clusterQueueNames(ADMIN)).willThrow(noConnection());

        mvc.perform(get("/queues").accept(MediaType.TEXT_HTML))
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", Integer.toString(DatabaseUnavailable.RETRY_AFTER_SECONDS)))
                .andExpect(content().contentTypeCompatibleWith(MediaType.TEXT_HTML))
                .andExpect(content().string(allOf(containsString("<h1>The platform's database is unreachable</h1>"),
                        containsString("Try again"), not(containsString("Exception")),
                        not(containsString("HikariPool")), not(containsString("\tat ")))));
    }

    @Test
    void anyOtherFailureOfAPageKeepsItsHandling() {
        given(queueQueries.clusterQueueNames(ADMIN)).willThrow(new IllegalStateException("a bug"));

        assertThatThrownBy(() -> mvc.perform(get("/queues").accept(MediaType.TEXT_HTML)))
                .as("left to the container's error page, a 500, as before")
                .hasRootCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void anApiCallAnswers503ProblemWithRetryAfter() throws Exception {
        given(configStore.list(Kind.RESOURCE_FLAVOR, ResourceFlavorManifest.class))
                .willThrow(new DataAccessResourceFailureException("terminating connection due to administrator command",
                        new SQLException("FATAL: terminating connection", "57P01")));

        mvc.perform(get("/api/v1/resourceflavors"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", Integer.toString(DatabaseUnavailable.RETRY_AFTER_SECONDS)))
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.status").value(503))
                .andExpect(jsonPath("$.detail").value(containsString("The database is unavailable")))
                .andExpect(jsonPath("$.errors").isEmpty())
                .andExpect(content().string(not(containsString("Exception"))));
    }
}
