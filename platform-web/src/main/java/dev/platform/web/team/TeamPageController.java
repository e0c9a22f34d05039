package dev.platform.web.team;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import java.util.List;

/** Team quota: pick a namespace, see its queues' quota, usage and borrowing, and its workloads. */
@Controller
public class TeamPageController {

    static final int WORKLOADS = 50;

    private final TeamQueries queries;

    public TeamPageController(TeamQueries queries) {
        this.queries = queries;
    }

    @GetMapping("/teams")
    public String teams(@RequestParam(required = false) String namespace, Model model) {
        model.addAttribute("nav", "teams");
        List<String> namespaces = queries.namespaces();
        model.addAttribute("namespaces", namespaces);
        String selected = namespace != null && !namespace.isBlank() ? namespace.trim()
                : namespaces.isEmpty() ? null : namespaces.get(0);
        model.addAttribute("selected", selected);
        model.addAttribute("team", selected == null ? null : queries.team(selected, WORKLOADS));
        model.addAttribute("usageChart", UsageChart.of(selected == null ? List.of() : queries.usageHistory(selected)));
        return "teams";
    }
}
