package dev.platform.scheduler.web;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Warnings as the Kubernetes API server sends them: one 299 header each, quoted, bounded in total. */
class WarningHeadersTest {

    @Test
    void eachWarningIsOneQuotedHeaderOnceInOrder() {
        var headers = WarningHeaders.of(List.of("unknown field \"spec.foo\"", "a \\ b; é", "unknown field \"spec.foo\""));

        assertThat(headers.get("Warning")).containsExactly(
                "299 - \"unknown field \\\"spec.foo\\\"\"",
                "299 - \"a \\\\ b; ?\"");
    }

    @Test
    void beyondTheirBudgetTheHeadersSayHowManyMoreTheAnswerHolds() {
        List<String> warnings = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            warnings.add("unknown field \"spec.field%03d\"".formatted(i) + " ".repeat(70));
        }

        List<String> headers = WarningHeaders.of(warnings).get("Warning");

        int sent = WarningHeaders.MAX_TEXT / warnings.get(0).length();
        assertThat(headers).hasSize(sent + 1);
        assertThat(headers.get(sent)).isEqualTo("299 - \"" + (100 - sent) + " more warning(s) are in the answer's warnings\"");
    }
}
