package dev.platform.web.overview;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** The console's landing page: cohorts and ClusterQueues with their usage, and the latest preemptions. */
@Controller
public class OverviewController {

    static final int LATEST_PREEMPTIONS = 10;

    private final OverviewQueries queries;

    public OverviewController(OverviewQueries queries) {
        this.queries = queries;
    }

    @GetMapping("/")
    public String overview(Model model) {
        model.addAttribute("nav", "overview");
        model.addAttribute("overview", queries.overview(LATEST_PREEMPTIONS));
        return "overview";
    }
}
