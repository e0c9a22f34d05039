package dev.platform.scheduler.web;

import dev.platform.scheduler.refusal.Refusal;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

/**
 * An opaque keyset cursor over (time, key), newest first: what every history and list endpoint
 * hands out as {@code next}, so a deep page costs what the first one does.
 */
public record KeysetCursor<K>(Instant at, K key) {

    public String encode() {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((at + "|" + key).getBytes(StandardCharsets.UTF_8));
    }

    /** One page of items and the cursor of the next page, null on the last. */
    public record Page<T>(List<T> items, String next) {
    }

    /**
     * The page in {@code rows}, read with one row more than {@code limit} to tell whether another
     * page follows; its cursor is the last item's.
     */
    public static <T> Page<T> page(List<T> rows, int limit, Function<T, KeysetCursor<?>> cursorOf) {
        if (rows.size() <= limit) {
            return new Page<>(rows, null);
        }
        List<T> items = rows.subList(0, limit);
        return new Page<>(items, cursorOf.apply(items.get(limit - 1)).encode());
    }

    /** Reads a cursor this API issued; anything else is a 400. */
    public static <K> KeysetCursor<K> decode(String cursor, Function<String, K> key) {
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split("\\|", 2);
            return new KeysetCursor<>(Instant.parse(parts[0]), key.apply(parts[1]));
        } catch (RuntimeException e) {
            throw new Refusal(Refusal.Kind.Malformed, "Bad Request", "cursor is not one this API issued",
                    List.of());
        }
    }
}
