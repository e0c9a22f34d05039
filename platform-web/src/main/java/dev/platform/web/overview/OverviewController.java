package dev.platform.web.overview;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** The console's landing page: every ClusterQueue with its quota and status. */
@Controller
public class OverviewController {

    private final ConsoleQueries queries;

    public OverviewController(ConsoleQueries queries) {
        this.queries = queries;
    }

    @GetMapping("/")
    public String overview(Model model) {
        model.addAttribute("clusterQueues", queries.clusterQueues());
        return "overview";
    }
}
