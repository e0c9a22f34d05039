package dev.platform.scheduler.preemption;

import dev.platform.api.identity.Caller;
import dev.platform.api.reason.DeactivationReason;
import dev.platform.api.reason.EvictionReason;
import dev.platform.api.reason.PreemptionReason;
import dev.platform.scheduler.web.KeysetCursor;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import static dev.platform.scheduler.preemption.CsvExport.csv;

/**
 * The work every eviction threw away, preemptions and hotswaps as well as drained queues, deactivations, pods-ready
 * timeouts, node failures and missing JobSets: filters, keyset pagination, and {@code text/csv} export of exactly the
 * filtered rows (page by page, in constant memory), chosen by {@code Accept: text/csv} or by {@code format=csv}. A team
 * lead sees the entries of the namespaces they lead. The preemption audit says who preempted whom; this says what
 * every eviction cost.
 */
@RestController
@RequestMapping("/api/v1/lostwork")
public class LostWorkController {

    private static final List<String> REASONS = Stream.of(PreemptionReason.names().stream(),
                    Stream.of(EvictionReason.values()).map(Enum::name),
                    Stream.of(DeactivationReason.values()).map(Enum::name))
            .flatMap(names -> names).distinct().sorted().toList();

    private final LostWorkLedger ledger;

    public LostWorkController(LostWorkLedger ledger) {
        this.ledger = ledger;
    }

    @GetMapping(produces = "application/json")
    public LostWorkPage list(@RequestParam(required = false) String namespace,
                             @RequestParam(required = false) String clusterQueue,
                             @RequestParam(required = false) String reason,
                             @RequestParam(required = false) String since,
                             @RequestParam(required = false) String until,
                             @RequestParam(required = false) String cursor,
                             @RequestParam(defaultValue = "100") int limit, Caller caller) {
        AuditParameters.checkLimit(limit);
        LostWorkLedger.Filter filter = filter(caller, namespace, clusterQueue, reason, since, until);
        List<LostWorkLedger.Recorded> rows = ledger.page(filter,
                cursor == null ? null : KeysetCursor.decode(cursor, Long::valueOf), limit + 1);
        KeysetCursor.Page<LostWorkLedger.Recorded> page = KeysetCursor.page(rows, limit,
                e -> new KeysetCursor<>(e.at(), e.id()));
        return new LostWorkPage(page.items().stream().map(Eviction::of).toList(), page.next());
    }

    @GetMapping(produces = "text/csv")
    public void export(@RequestParam(required = false) String namespace,
                       @RequestParam(required = false) String clusterQueue,
                       @RequestParam(required = false) String reason,
                       @RequestParam(required = false) String since,
                       @RequestParam(required = false) String until,
                       Caller caller, HttpServletResponse response) throws IOException {
        LostWorkLedger.Filter filter = filter(caller, namespace, clusterQueue, reason, since, until);
        CsvExport.write(response, "lostwork.csv",
                "id,at,eviction,reason,namespace,name,uid,cluster_queue,lost_work_since,lost_work_resource_seconds",
                (cursor, size) -> ledger.page(filter, cursor, size), e -> new KeysetCursor<>(e.at(), e.id()),
                e -> List.of(Long.toString(e.id()), e.at().toString(), csv(e.eviction()), csv(e.reason()),
                        csv(e.namespace()), csv(e.name()), e.workload().toString(), csv(e.clusterQueue()),
                        e.lostWork().since().toString(), csv(CsvExport.resourceSeconds(e.lostWork()))));
    }

    /** The same export for a link, which cannot set {@code Accept}. */
    @GetMapping(params = "format=csv")
    public void exportAsLink(@RequestParam(required = false) String namespace,
                             @RequestParam(required = false) String clusterQueue,
                             @RequestParam(required = false) String reason,
                             @RequestParam(required = false) String since,
                             @RequestParam(required = false) String until,
                             Caller caller, HttpServletResponse response) throws IOException {
        export(namespace, clusterQueue, reason, since, until, caller, response);
    }

    private static LostWorkLedger.Filter filter(Caller caller, String namespace, String clusterQueue, String reason,
                                                String since, String until) {
        if (reason != null && !REASONS.contains(reason)) {
            throw AuditParameters.badRequest("reason must be a preemption, eviction or deactivation reason, one of "
                    + REASONS);
        }
        return new LostWorkLedger.Filter(namespace, clusterQueue, reason, AuditParameters.time("since", since),
                AuditParameters.time("until", until),
                caller.ledNamespaces().orElse(null));
    }

    /**
     * One eviction's lost work: when, which workload and ClusterQueue, Kueue's eviction reason ({@code Preempted},
     * {@code PodsReadyTimeout}, ...) and the reason the counters name (the preemption reason of a preemption).
     */
    public record Eviction(long id, Instant at, String eviction, String reason, String namespace, String name,
                           UUID uid, String clusterQueue, LostWork lostWork) {

        static Eviction of(LostWorkLedger.Recorded e) {
            return new Eviction(e.id(), e.at(), e.eviction(), e.reason(), e.namespace(), e.name(), e.workload(),
                    e.clusterQueue(), e.lostWork());
        }
    }

    /** A page of evictions, newest first; {@code next} is the cursor of the following page, null on the last. */
    public record LostWorkPage(List<Eviction> items, String next) {
    }
}
