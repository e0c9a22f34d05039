package dev.platform.scheduler.testsupport;

import dev.platform.scheduler.web.KeysetCursor;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Reads a keyset-paged store to its end, as a client follows {@code next}. */
public final class KeysetPages {

    private KeysetPages() {
    }

    /**
     * Every row, page after page of {@code limit}: {@code page} reads the page after a cursor (null for the
     * first), {@code cursorOf} is the cursor of a page's last row; a short page is the last.
     */
    public static <T, K> List<T> all(Function<KeysetCursor<K>, List<T>> page, int limit,
                                     Function<T, KeysetCursor<K>> cursorOf) {
        List<T> seen = new ArrayList<>();
        KeysetCursor<K> cursor = null;
        List<T> rows;
        do {
            rows = page.apply(cursor);
            seen.addAll(rows);
            if (!rows.isEmpty()) {
                cursor = cursorOf.apply(rows.get(rows.size() - 1));
            }
        } while (rows.size() == limit);
        return seen;
    }
}
