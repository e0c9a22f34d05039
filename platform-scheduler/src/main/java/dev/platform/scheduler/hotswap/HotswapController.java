package dev.platform.scheduler.hotswap;

import dev.platform.scheduler.web.ApiException;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/** {@code GET /api/v1/hotswaps}: hotswap events with their MTTR phases, newest first, keyset-paged. */
@RestController
@RequestMapping(path = "/api/v1/hotswaps", produces = "application/json")
public class HotswapController {

    private final HotswapStore store;

    public HotswapController(HotswapStore store) {
        this.store = store;
    }

    @GetMapping
    public HotswapPage list(@RequestParam(required = false) String cluster,
                            @RequestParam(required = false) String workloadUid,
                            @RequestParam(required = false) String cursor,
                            @RequestParam(defaultValue = "100") int limit) {
        if (limit < 1 || limit > 1000) {
            throw badRequest("limit must be between 1 and 1000");
        }
        Instant beforeAt = null;
        Long beforeId = null;
        if (cursor != null) {
            try {
                String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split("\\|");
                beforeAt = Instant.parse(parts[0]);
                beforeId = Long.parseLong(parts[1]);
            } catch (RuntimeException e) {
                throw badRequest("cursor is not one this API issued");
            }
        }
        UUID disrupted;
        try {
            disrupted = workloadUid == null ? null : UUID.fromString(workloadUid);
        } catch (IllegalArgumentException e) {
            throw badRequest("workloadUid must be a UUID");
        }
        List<HotswapEvent> rows = store.page(cluster, disrupted, beforeAt, beforeId, limit + 1);
        boolean more = rows.size() > limit;
        List<HotswapEvent> page = more ? rows.subList(0, limit) : rows;
        String next = null;
        if (more) {
            HotswapEvent last = page.get(limit - 1);
            next = Base64.getUrlEncoder().withoutPadding()
                    .encodeToString((last.detectedAt() + "|" + last.id()).getBytes(StandardCharsets.UTF_8));
        }
        return new HotswapPage(page, next);
    }

    private static ApiException badRequest(String detail) {
        return new ApiException(HttpStatus.BAD_REQUEST, "Bad Request", detail, List.of());
    }

    public record HotswapPage(List<HotswapEvent> items, String next) {
    }
}
