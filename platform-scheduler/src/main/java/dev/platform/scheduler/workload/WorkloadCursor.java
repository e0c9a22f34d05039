package dev.platform.scheduler.workload;

import dev.platform.scheduler.web.ApiException;
import org.springframework.http.HttpStatus;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/** An opaque keyset cursor over (createdAt, uid), newest first. */
public record WorkloadCursor(Instant createdAt, UUID uid) {

    public String encode() {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((createdAt + "|" + uid).getBytes(StandardCharsets.UTF_8));
    }

    public static WorkloadCursor decode(String cursor) {
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split("\\|");
            return new WorkloadCursor(Instant.parse(parts[0]), UUID.fromString(parts[1]));
        } catch (RuntimeException e) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "Bad Request", "cursor is not one this API issued",
                    List.of());
        }
    }
}
