package dev.platform.web.team;

import dev.platform.api.identity.Caller;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import org.springframework.web.util.UriComponentsBuilder;

import java.util.List;

/**
 * Team quota: pick a team (the caller's first by default), see its queues' quota, usage history and
 * borrowing, and its workloads. For the team's leads, and for Ops and Admin; an Admin also stops and resumes
 * the team's LocalQueues there.
 */
@Controller
public class TeamPageController {

    static final int WORKLOADS = 50;

    private final TeamQueries queries;
    private final TeamCommands commands;

    public TeamPageController(TeamQueries queries, TeamCommands commands) {
        this.queries = queries;
        this.commands = commands;
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
        model.addAttribute("lostWork", selected == null ? List.of() : queries.lostWork(selected));
        return "teams";
    }

    /** kueuectl stop localqueue: Hold, or HoldAndDrain with {@code drain}; back to the team's page. */
    @PostMapping("/namespaces/{namespace}/localqueues/{localQueue}/stop")
    public String stop(@PathVariable String namespace, @PathVariable String localQueue,
                       @RequestParam(defaultValue = "false") boolean drain, @RequestParam(required = false) String team,
                       Caller caller, RedirectAttributes redirect) {
        return setStopPolicy(namespace, localQueue, drain ? "HoldAndDrain" : "Hold", team, caller, redirect);
    }

    @PostMapping("/namespaces/{namespace}/localqueues/{localQueue}/resume")
    public String resume(@PathVariable String namespace, @PathVariable String localQueue,
                         @RequestParam(required = false) String team, Caller caller, RedirectAttributes redirect) {
        return setStopPolicy(namespace, localQueue, "None", team, caller, redirect);
    }

    private String setStopPolicy(String namespace, String localQueue, String policy, String team, Caller caller,
                                 RedirectAttributes redirect) {
        String queue = namespace + "/" + localQueue;
        boolean found = commands.setStopPolicy(caller, namespace, localQueue, policy);
        redirect.addFlashAttribute("notice", !found ? "There is no LocalQueue " + queue + "."
                : switch (policy) {
                    case "Hold" -> "Stopped LocalQueue " + queue + ": nothing new is admitted from it; its admitted"
                            + " workloads keep running.";
                    case "HoldAndDrain" -> "Stopped LocalQueue " + queue + " and drained it: its admitted workloads"
                            + " are evicted.";
                    default -> "Resumed LocalQueue " + queue + ": its workloads are admitted again.";
                });
        UriComponentsBuilder back = UriComponentsBuilder.fromPath("/teams");
        if (team != null && !team.isBlank()) {
            back.queryParam("team", team.trim());
        }
        return "redirect:" + back.encode().build().toUriString();
    }
}
