package dev.platform.web.preemption;

import dev.platform.api.reason.PreemptionReason;
import dev.platform.api.identity.Caller;
import dev.platform.web.preemption.PreemptionQueries.PreemptionPage;
import dev.platform.web.preemption.PreemptionQueries.PreemptionSearch;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.util.UriComponentsBuilder;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The preemption audit: a GET form of filters, keyset pages, and a CSV link to the REST export of
 * exactly the filtered rows. Times are UTC; the form's {@code datetime-local} fields send them
 * without a zone, the links carry them as RFC 3339.
 */
@Controller
public class PreemptionAuditController {

    static final int PAGE = 50;
    static final List<String> REASONS = PreemptionReason.names();

    private final PreemptionQueries queries;

    public PreemptionAuditController(PreemptionQueries queries) {
        this.queries = queries;
    }

    @GetMapping("/preemptions")
    public String audit(@RequestParam(required = false) String clusterQueue,
                        @RequestParam(required = false) String namespace,
                        @RequestParam(required = false) String reason,
                        @RequestParam(required = false) String since,
                        @RequestParam(required = false) String until,
                        @RequestParam(required = false) String cursor,
                        Caller caller, Model model, HttpServletResponse response) {
        model.addAttribute("nav", "preemptions");
        model.addAttribute("reasons", REASONS);
        List<String> errors = new ArrayList<>();
        String reasonFilter = blankToNull(reason);
        if (reasonFilter != null && !REASONS.contains(reasonFilter)) {
            errors.add("Reason must be one of " + String.join(", ", REASONS) + ".");
        }
        PreemptionSearch search = new PreemptionSearch(blankToNull(clusterQueue), blankToNull(namespace), reasonFilter,
                time("From", since, errors), time("Until", until, errors));
        model.addAttribute("search", search);
        model.addAttribute("sinceField", field(search.since()));
        model.addAttribute("untilField", field(search.until()));
        PreemptionPage page = new PreemptionPage(List.of(), null);
        if (errors.isEmpty()) {
            try {
                page = queries.page(caller, search, blankToNull(cursor), PAGE);
            } catch (IllegalArgumentException e) {
                errors.add("That page link is no longer valid; start again from the first page.");
            }
        }
        if (!errors.isEmpty()) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        }
        model.addAttribute("errors", errors);
        model.addAttribute("page", page);
        model.addAttribute("firstPage", cursor != null && !cursor.isBlank() ? link("/preemptions", search, null) : null);
        model.addAttribute("nextPage", page.next() == null ? null : link("/preemptions", search, page.next()));
        model.addAttribute("csvLink", link("/api/v1/preemptions", search, null) + (hasFilter(search) ? "&" : "?")
                + "format=csv");
        return "preemptions";
    }

    /** A link with the search's filters, and the cursor when given; empty filters are left out. */
    private static String link(String path, PreemptionSearch search, String cursor) {
        UriComponentsBuilder uri = UriComponentsBuilder.fromPath(path);
        add(uri, "clusterQueue", search.clusterQueue());
        add(uri, "namespace", search.namespace());
        add(uri, "reason", search.reason());
        add(uri, "since", search.since() == null ? null : search.since().toString());
        add(uri, "until", search.until() == null ? null : search.until().toString());
        add(uri, "cursor", cursor);
        return uri.encode().build().toUriString();
    }

    private static void add(UriComponentsBuilder uri, String name, String value) {
        if (value != null) {
            uri.queryParam(name, value);
        }
    }

    private static boolean hasFilter(PreemptionSearch search) {
        return search.clusterQueue() != null || search.namespace() != null || search.reason() != null
                || search.since() != null || search.until() != null;
    }

    /** RFC 3339 from links, or the zone-less {@code 2026-11-29T10:00} of a datetime-local field, read as UTC. */
    private static Instant time(String label, String value, List<String> errors) {
        String text = blankToNull(value);
        if (text == null) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException notInstant) {
            try {
                return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e) {
                errors.add(label + " must be a time such as 2026-11-29T10:00 (UTC).");
                return null;
            }
        }
    }

    /** The value a datetime-local field shows for a time: UTC, to the second. */
    private static String field(Instant time) {
        return time == null ? "" : LocalDateTime.ofInstant(time, ZoneOffset.UTC).toString();
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
