package dev.platform.web.team;

import dev.platform.api.identity.Caller;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import java.util.List;

/**
 * Team quota: pick a team (the caller's first by default), see its queues' quota, usage history and
 * borrowing, and its workloads. For the team's leads, and for Ops and Admin.
 */
@Controller
public class TeamPageController {

    static final int WORKLOADS = 50;

    private final TeamQueries queries;

    public TeamPageController(TeamQueries queries) {
        this.queries = queries;
    }

    @GetMapping("/teams")
    public String teams(@RequestParam(required = false) String team, Caller caller, Model model,
                        HttpServletResponse response) {
        model.addAttribute("nav", "teams");
        List<String> teams = queries.teams(caller);
        model.addAttribute("teams", teams);
        String selected = team != null && !team.isBlank() ? team.trim() : teams.isEmpty() ? null : teams.get(0);
        if (selected != null && !teams.contains(selected)) {
            response.setStatus(caller.readsEverything() ? HttpServletResponse.SC_NOT_FOUND
                    : HttpServletResponse.SC_FORBIDDEN);
            model.addAttribute("what", "Team " + selected);
            return caller.readsEverything() ? "not-found" : "forbidden";
        }
        model.addAttribute("selected", selected);
        model.addAttribute("team", selected == null ? null : queries.team(selected, WORKLOADS).orElse(null));
        model.addAttribute("usageChart", UsageChart.of(selected == null ? List.of() : queries.usageHistory(selected)));
        return "teams";
    }
}
