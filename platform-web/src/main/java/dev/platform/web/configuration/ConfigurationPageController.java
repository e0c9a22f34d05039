package dev.platform.web.configuration;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** The configuration as applied, read-only: changes go through {@code POST /api/v1/manifests}. */
@Controller
public class ConfigurationPageController {

    private final ConfigurationQueries queries;

    public ConfigurationPageController(ConfigurationQueries queries) {
        this.queries = queries;
    }

    @GetMapping("/configuration")
    public String configuration(Model model) {
        model.addAttribute("nav", "configuration");
        model.addAttribute("config", queries.configuration());
        return "configuration";
    }
}
