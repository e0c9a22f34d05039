package dev.platform.web.hotswap;

import dev.platform.api.identity.Caller;
import dev.platform.web.console.HotswapView;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

import java.util.List;

/**
 * Hotswap events with their MTTR phases as timelines, and MTTR over time as a chart: every event for Ops and
 * Admins, those of their teams' workloads for team leads.
 */
@Controller
public class HotswapPageController {

    static final int EVENTS = 100;

    private final HotswapQueries queries;

    public HotswapPageController(HotswapQueries queries) {
        this.queries = queries;
    }

    @GetMapping("/hotswaps")
    public String hotswaps(Caller caller, Model model) {
        List<HotswapView> events = queries.latest(caller, EVENTS);
        model.addAttribute("nav", "hotswaps");
        model.addAttribute("events", events);
        model.addAttribute("chart", MttrChart.of(events));
        return "hotswaps";
    }
}
