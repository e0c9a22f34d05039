package dev.platform.web.queue;

import dev.platform.api.identity.Caller;
import dev.platform.web.console.FoldedRows;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import org.springframework.web.util.UriUtils;

import java.nio.charset.StandardCharsets;

import java.util.List;

/**
 * The queue pages: the list of ClusterQueues with the workloads that run outside them
 * (priority-only mode), and one queue's pending and admitted workloads, with an Admin's Stop, Stop and drain,
 * and Resume buttons.
 */
@Controller
public class QueuePageController {

    static final int PAGE = 100;

    private final QueueQueries queries;
    private final QueueCommands commands;

    public QueuePageController(QueueQueries queries, QueueCommands commands) {
        this.queries = queries;
        this.commands = commands;
    }

    /** kueuectl stop clusterqueue: Hold, or HoldAndDrain with {@code drain}. */
    @PostMapping("/queues/{clusterQueue}/stop")
    public String stop(@PathVariable String clusterQueue, @RequestParam(defaultValue = "false") boolean drain,
                       Caller caller, RedirectAttributes redirect) {
        return setStopPolicy(clusterQueue, drain ? "HoldAndDrain" : "Hold", caller, redirect);
    }

    @PostMapping("/queues/{clusterQueue}/resume")
    public String resume(@PathVariable String clusterQueue, Caller caller, RedirectAttributes redirect) {
        return setStopPolicy(clusterQueue, "None", caller, redirect);
    }

    private String setStopPolicy(String clusterQueue, String policy, Caller caller, RedirectAttributes redirect) {
        boolean found = commands.setStopPolicy(caller, clusterQueue, policy);
        redirect.addFlashAttribute("notice", !found ? "There is no ClusterQueue " + clusterQueue + "."
                : switch (policy) {
                    case "Hold" -> "Stopped " + clusterQueue + ": it admits nothing new; admitted workloads keep running.";
                    case "HoldAndDrain" -> "Stopped " + clusterQueue + " and drained it: its admitted workloads are"
                            + " evicted.";
                    default -> "Resumed " + clusterQueue + ": it admits again.";
                });
        return "redirect:/queues/" + UriUtils.encodePathSegment(clusterQueue, StandardCharsets.UTF_8);
    }

    @GetMapping("/queues")
    public String queues(Caller caller, Model model) {
        model.addAttribute("nav", "queues");
        model.addAttribute("names", queries.clusterQueueNames(caller));
        List<QueueQueries.PriorityOnlyRow> priorityOnly = queries.priorityOnly(caller, PAGE);
        model.addAttribute("priorityOnly", priorityOnly);
        model.addAttribute("priorityOnlyLines", FoldedRows.fold(priorityOnly, QueueQueries.PriorityOnlyRow::isHidden));
        model.addAttribute("priorityOnlyLimit", PAGE);
        return "queues";
    }

    @GetMapping("/queues/{clusterQueue}")
    public String queue(@PathVariable String clusterQueue, @RequestParam(defaultValue = "0") int offset, Caller caller,
                        Model model, HttpServletResponse response) {
        model.addAttribute("nav", "queues");
        int from = Math.max(0, offset);
        return queries.clusterQueue(caller, clusterQueue, from, PAGE)
                .map(page -> {
                    model.addAttribute("page", page);
                    model.addAttribute("pendingLines", FoldedRows.fold(page.pending(), QueueQueries.PendingRow::isHidden));
                    model.addAttribute("admittedLines", FoldedRows.fold(page.admitted(), QueueQueries.AdmittedRow::isHidden));
                    model.addAttribute("offset", from);
                    model.addAttribute("previousOffset", from > 0 ? Math.max(0, from - PAGE) : null);
                    model.addAttribute("nextOffset", from + page.pending().size() < page.queue().pendingWorkloads()
                            ? from + page.pending().size() : null);
                    return "queue";
                })
                .orElseGet(() -> {
                    response.setStatus(HttpServletResponse.SC_NOT_FOUND);
                    model.addAttribute("what", "ClusterQueue " + clusterQueue);
                    return "not-found";
                });
    }
}
