package dev.platform.web.console;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Rows of a list as a page shows them: the caller's own as they are, and each run of other teams'
 * rows folded into one line that counts them (a queue's order stays visible, names do not).
 */
public final class FoldedRows {

    private FoldedRows() {
    }

    /** A visible row ({@code row} set), or a run of {@code hiddenCount} hidden rows from {@code first} to {@code last}. */
    public record Line<T>(T row, T first, T last, int hiddenCount) {

        public boolean isHidden() {
            return row == null;
        }
    }

    public static <T> List<Line<T>> fold(List<T> rows, Predicate<T> hidden) {
        List<Line<T>> lines = new ArrayList<>();
        T first = null;
        T last = null;
        int count = 0;
        for (T row : rows) {
            if (hidden.test(row)) {
                first = count == 0 ? row : first;
                last = row;
                count++;
                continue;
            }
            if (count > 0) {
                lines.add(new Line<>(null, first, last, count));
                count = 0;
            }
            lines.add(new Line<>(row, null, null, 0));
        }
        if (count > 0) {
            lines.add(new Line<>(null, first, last, count));
        }
        return lines;
    }
}
