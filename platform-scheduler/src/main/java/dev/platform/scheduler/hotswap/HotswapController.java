package dev.platform.scheduler.hotswap;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.web.KeysetCursor;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

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
                            @RequestParam(defaultValue = "100") int limit, Caller caller) {
        if (limit < 1 || limit > 1000) {
            throw badRequest("limit must be between 1 and 1000");
        }
        KeysetCursor<Long> after = cursor == null ? null : KeysetCursor.decode(cursor, Long::valueOf);
        UUID disrupted;
        try {
            disrupted = workloadUid == null ? null : UUID.fromString(workloadUid);
        } catch (IllegalArgumentException e) {
            throw badRequest("workloadUid must be a UUID");
        }
        List<HotswapEvent> rows = store.page(cluster, disrupted, caller.ledNamespaces(),
                after == null ? null : after.at(), after == null ? null : after.key(), limit + 1);
        KeysetCursor.Page<HotswapEvent> page = KeysetCursor.page(rows, limit,
                e -> new KeysetCursor<>(e.detectedAt(), e.id()));
        return new HotswapPage(page.items().stream().map(e -> e.seenBy(caller)).toList(), page.next());
    }

    private static Refusal badRequest(String detail) {
        return new Refusal(Refusal.Kind.Malformed, "Bad Request", detail, List.of());
    }

    public record HotswapPage(List<HotswapEvent> items, String next) {
    }
}
