package dev.platform.scheduler.preemption;

import dev.platform.scheduler.web.ApiException;
import org.springframework.http.HttpStatus;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

/** An opaque keyset cursor over (at, id), newest first. */
public record PreemptionCursor(Instant at, long id) {

    public String encode() {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((at + "|" + id).getBytes(StandardCharsets.UTF_8));
    }

    public static PreemptionCursor decode(String cursor) {
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split("\\|");
            return new PreemptionCursor(Instant.parse(parts[0]), Long.parseLong(parts[1]));
        } catch (RuntimeException e) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "Bad Request", "cursor is not one this API issued",
                    List.of());
        }
    }
}
