package dev.platform.scheduler.preemption;

import dev.platform.api.reason.PreemptionReason;
import dev.platform.api.identity.Caller;
import dev.platform.scheduler.web.KeysetCursor;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.util.List;

import static dev.platform.scheduler.preemption.CsvExport.csv;

/**
 * The preemption audit: filters, keyset pagination, and {@code text/csv} export of
 * exactly the filtered rows (streamed page by page, so a large export stays in constant memory), chosen by
 * {@code Accept: text/csv} or by {@code format=csv}.
 */
@RestController
@RequestMapping("/api/v1/preemptions")
public class PreemptionController {

    private static final List<String> REASONS = PreemptionReason.names();

    private final PreemptionStore store;

    public PreemptionController(PreemptionStore store) {
        this.store = store;
    }

    @GetMapping(produces = "application/json")
    public PreemptionPage list(@RequestParam(required = false) String clusterQueue,
                               @RequestParam(required = false) String namespace,
                               @RequestParam(required = false) String reason,
                               @RequestParam(required = false) String since,
                               @RequestParam(required = false) String until,
                               @RequestParam(required = false) String cursor,
                               @RequestParam(defaultValue = "100") int limit, Caller caller) {
        AuditParameters.checkLimit(limit);
        PreemptionFilter filter = filter(caller, clusterQueue, namespace, reason, since, until);
        List<PreemptionEvent> rows = store.page(filter, cursor == null ? null : KeysetCursor.decode(cursor, Long::valueOf), limit + 1);
        KeysetCursor.Page<PreemptionEvent> page = KeysetCursor.page(rows, limit, e -> new KeysetCursor<>(e.at(), e.id()));
        return new PreemptionPage(page.items().stream().map(e -> e.seenBy(caller)).toList(), page.next());
    }

    @GetMapping(produces = "text/csv")
    public void export(@RequestParam(required = false) String clusterQueue,
                       @RequestParam(required = false) String namespace,
                       @RequestParam(required = false) String reason,
                       @RequestParam(required = false) String since,
                       @RequestParam(required = false) String until,
                       Caller caller, HttpServletResponse response) throws IOException {
        PreemptionFilter filter = filter(caller, clusterQueue, namespace, reason, since, until);
        CsvExport.write(response, "preemptions.csv",
                "id,at,reason,message,preemptor_namespace,preemptor_name,preemptor_uid,preemptor_cluster_queue,"
                        + "preemptor_priority,victim_namespace,victim_name,victim_uid,victim_cluster_queue,victim_priority,"
                        + "lost_work_since,lost_work_resource_seconds",
                (cursor, size) -> store.page(filter, cursor, size), e -> new KeysetCursor<>(e.at(), e.id()),
                event -> {
                    PreemptionEvent e = event.seenBy(caller);
                    return List.of(Long.toString(e.id()), e.at().toString(), csv(e.reason()), csv(e.message()),
                            csv(e.preemptor().namespace()), csv(e.preemptor().name()), e.preemptor().uid().toString(),
                            csv(e.preemptor().clusterQueue()), Integer.toString(e.preemptor().priority()),
                            csv(e.victim().namespace()), csv(e.victim().name()), e.victim().uid().toString(),
                            csv(e.victim().clusterQueue()), Integer.toString(e.victim().priority()),
                            e.lostWork() == null ? "" : e.lostWork().since().toString(),
                            e.lostWork() == null ? "" : csv(CsvExport.resourceSeconds(e.lostWork())));
                });
    }

    /**
     * The same export for a link: a browser cannot set {@code Accept}, so {@code format=csv} selects
     * CSV too (the console's download link uses it). A parameter condition outranks the Accept match.
     */
    @GetMapping(params = "format=csv")
    public void exportAsLink(@RequestParam(required = false) String clusterQueue,
                             @RequestParam(required = false) String namespace,
                             @RequestParam(required = false) String reason,
                             @RequestParam(required = false) String since,
                             @RequestParam(required = false) String until,
                             Caller caller, HttpServletResponse response) throws IOException {
        export(clusterQueue, namespace, reason, since, until, caller, response);
    }

    private static PreemptionFilter filter(Caller caller, String clusterQueue, String namespace, String reason,
                                           String since, String until) {
        if (reason != null && !REASONS.contains(reason)) {
            throw AuditParameters.badRequest("reason must be one of " + REASONS.stream().sorted().toList());
        }
        return PreemptionFilter.of(caller, clusterQueue, namespace, reason, AuditParameters.time("since", since),
                AuditParameters.time("until", until));
    }

    /** A page of events; {@code next} is the cursor of the following page, null on the last. */
    public record PreemptionPage(List<PreemptionEvent> items, String next) {
    }
}
