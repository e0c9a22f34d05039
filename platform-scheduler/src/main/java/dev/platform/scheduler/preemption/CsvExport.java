package dev.platform.scheduler.preemption;

import dev.platform.scheduler.web.KeysetCursor;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * An audit exported as CSV: exactly the filtered rows, newest first, read page by page on the keyset (at, id) so a
 * large export stays in constant memory.
 */
final class CsvExport {

    private static final int PAGE = 5000;
    private static final String FORMULA_START = "=+-@\t\r";

    private CsvExport() {
    }

    /**
     * Writes {@code header} and then {@code cells} of every row {@code page} answers (a page of at most the size given,
     * strictly after the cursor given, null for the first) as the attachment {@code filename}.
     */
    static <T> void write(HttpServletResponse response, String filename, String header,
                          BiFunction<KeysetCursor<Long>, Integer, List<T>> page,
                          Function<T, KeysetCursor<Long>> cursorOf, Function<T, List<String>> cells) throws IOException {
        response.setContentType("text/csv;charset=UTF-8");
        response.setHeader("Content-Disposition", "attachment; filename=\"" + filename + "\"");
        PrintWriter out = response.getWriter();
        out.print(header + "\r\n");
        KeysetCursor<Long> cursor = null;
        List<T> rows;
        do {
            rows = page.apply(cursor, PAGE);
            for (T row : rows) {
                out.print(String.join(",", cells.apply(row)));
                out.print("\r\n");
            }
            if (!rows.isEmpty()) {
                cursor = cursorOf.apply(rows.get(rows.size() - 1));
            }
        } while (rows.size() == PAGE);
        out.flush();
    }

    /** {@code google.com/tpu=1234.5} per resource, separated by semicolons. */
    static String resourceSeconds(LostWork work) {
        return work.resourceSeconds().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(";"));
    }

    /**
     * RFC 4180 quoting (fields with commas, quotes or line breaks are quoted, quotes doubled), after
     * OWASP's rule against spreadsheet formula injection: a text cell starting with {@code =},
     * {@code +}, {@code -}, {@code @}, a tab or a carriage return gets a leading {@code '}, so a
     * spreadsheet shows it as text instead of running it. The numeric columns (ids, priorities) are
     * written as numbers and not passed here.
     */
    static String csv(String value) {
        if (value == null) {
            return "";
        }
        String text = !value.isEmpty() && FORMULA_START.indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
        if (text.contains(",") || text.contains("\"") || text.contains("\n") || text.contains("\r")) {
            return '"' + text.replace("\"", "\"\"") + '"';
        }
        return text;
    }
}
