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
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;

/**
 * The preemption audit: filters, keyset pagination, and {@code text/csv} export of
 * exactly the filtered rows (streamed page by page, so a large export stays in constant memory), chosen by
 * {@code Accept: text/csv} or by {@code format=csv}.
 */
@RestController
@RequestMapping("/api/v1/preemptions")
public class PreemptionController {

    private static final int EXPORT_PAGE = 5000;
    private static final List<String> REASONS = PreemptionReason.names();

    private static final String FORMULA_START = "=+-@\t\r";

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
        response.setContentType("text/csv;charset=UTF-8");
        response.setHeader("Content-Disposition", "attachment; filename=\"preemptions.csv\"");
        PrintWriter out = response.getWriter();
        out.print("id,at,reason,message,preemptor_namespace,preemptor_name,preemptor_uid,preemptor_cluster_queue,"
                + "preemptor_priority,victim_namespace,victim_name,victim_uid,victim_cluster_queue,victim_priority,"
                + "lost_work_since,lost_work_resource_seconds\r\n");
        KeysetCursor<Long> cursor = null;
        List<PreemptionEvent> page;
        do {
            page = store.page(filter, cursor, EXPORT_PAGE);
            for (PreemptionEvent event : page) {
                PreemptionEvent e = event.seenBy(caller);
                out.print(String.join(",", List.of(Long.toString(e.id()), e.at().toString(), csv(e.reason()),
                        csv(e.message()), csv(e.preemptor().namespace()), csv(e.preemptor().name()), e.preemptor().uid().toString(),
                        csv(e.preemptor().clusterQueue()), Integer.toString(e.preemptor().priority()),
                        csv(e.victim().namespace()), csv(e.victim().name()), e.victim().uid().toString(),
                        csv(e.victim().clusterQueue()), Integer.toString(e.victim().priority()),
                        e.lostWork() == null ? "" : e.lostWork().since().toString(),
                        e.lostWork() == null ? "" : csv(resourceSeconds(e.lostWork())))));
                out.print("\r\n");
            }
            if (!page.isEmpty()) {
                PreemptionEvent last = page.get(page.size() - 1);
                cursor = new KeysetCursor<>(last.at(), last.id());
            }
        } while (page.size() == EXPORT_PAGE);
        out.flush();
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

    /** {@code google.com/tpu=1234.5} per resource, separated by semicolons. */
    static String resourceSeconds(LostWork work) {
        return work.resourceSeconds().entrySet().stream().sorted(java.util.Map.Entry.comparingByKey())
                .map(e -> e.getKey() + "=" + e.getValue()).collect(java.util.stream.Collectors.joining(";"));
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

    /** A page of events; {@code next} is the cursor of the following page, null on the last. */
    public record PreemptionPage(List<PreemptionEvent> items, String next) {
    }
}
