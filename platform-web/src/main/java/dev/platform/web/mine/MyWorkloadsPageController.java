package dev.platform.web.mine;

import dev.platform.api.identity.Caller;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import java.util.List;

/**
 * "My workloads": an Engineer's own workloads in every state, finished and cancelled ones included, newest first,
 * filtered by state, namespace and LocalQueue, or every workload of their teams' namespaces.
 */
@Controller
public class MyWorkloadsPageController {

    static final int PAGE = 50;
    /** The states a workload passes through, as the filter offers them. */
    static final List<String> STATES = List.of("Pending", "Admitted", "Running", "Evicted", "Finished", "Failed");

    private final MyWorkloadsQueries queries;

    public MyWorkloadsPageController(MyWorkloadsQueries queries) {
        this.queries = queries;
    }

    @GetMapping("/workloads")
    public String workloads(Caller caller, @RequestParam(defaultValue = "me") String who,
                            @RequestParam(required = false) String state, @RequestParam(required = false) String namespace,
                            @RequestParam(required = false) String queue, @RequestParam(required = false) String cursor,
                            Model model) {
        MyWorkloadsQueries.Filter filter = new MyWorkloadsQueries.Filter(!"team".equals(who),
                state != null && STATES.contains(state) ? state : null, blankToNull(namespace), blankToNull(queue));
        model.addAttribute("nav", "workloads");
        model.addAttribute("filter", filter);
        model.addAttribute("states", STATES);
        model.addAttribute("namespaces", caller.visibleNamespaces().orElse(null));
        model.addAttribute("page", queries.workloads(caller, filter, blankToNull(cursor), PAGE));
        model.addAttribute("first", cursor == null || cursor.isBlank());
        return "workloads";
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
