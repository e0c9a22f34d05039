package dev.platform.web.workload;

import dev.platform.api.identity.Caller;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import org.springframework.web.util.UriUtils;

import java.nio.charset.StandardCharsets;

/**
 * The workload page and its Cancel, Stop and Resume buttons: plain form POSTs, with the CSRF token Spring
 * Security adds to every form.
 */
@Controller
public class WorkloadPageController {

    private final WorkloadQueries queries;
    private final WorkloadCommands commands;

    public WorkloadPageController(WorkloadQueries queries, WorkloadCommands commands) {
        this.queries = queries;
        this.commands = commands;
    }

    @GetMapping("/namespaces/{namespace}/workloads/{name}")
    public String workload(@PathVariable String namespace, @PathVariable String name, Caller caller, Model model,
                           HttpServletResponse response) {
        model.addAttribute("nav", "queues");
        return queries.workload(caller, namespace, name)
                .map(w -> {
                    model.addAttribute("w", w);
                    model.addAttribute("manifestYaml", ManifestYaml.fromJson(w.manifestJson()));
                    return "workload";
                })
                .orElseGet(() -> {
                    response.setStatus(HttpServletResponse.SC_NOT_FOUND);
                    model.addAttribute("what", "Workload " + namespace + "/" + name);
                    return "not-found";
                });
    }

    @PostMapping("/namespaces/{namespace}/workloads/{name}/cancel")
    public String cancel(@PathVariable String namespace, @PathVariable String name, Caller caller,
                         RedirectAttributes redirect) {
        String notice = switch (commands.cancel(caller, namespace, name)) {
            case CANCELLED -> "Cancelled " + namespace + "/" + name + "; its quota is free.";
            case ALREADY_FINISHED -> namespace + "/" + name + " had already finished; nothing to cancel.";
            case NOT_FOUND -> "There is no workload " + namespace + "/" + name + ".";
        };
        redirect.addFlashAttribute("notice", notice);
        return "redirect:/namespaces/" + segment(namespace) + "/workloads/" + segment(name);
    }

    @PostMapping("/namespaces/{namespace}/workloads/{name}/stop")
    public String stop(@PathVariable String namespace, @PathVariable String name, Caller caller,
                       RedirectAttributes redirect) {
        return setActive(namespace, name, false, caller, redirect);
    }

    @PostMapping("/namespaces/{namespace}/workloads/{name}/resume")
    public String resume(@PathVariable String namespace, @PathVariable String name, Caller caller,
                         RedirectAttributes redirect) {
        return setActive(namespace, name, true, caller, redirect);
    }

    private String setActive(String namespace, String name, boolean active, Caller caller, RedirectAttributes redirect) {
        String notice = switch (commands.setActive(caller, namespace, name, active)) {
            case CANCELLED -> active ? "Resumed " + namespace + "/" + name + "; it waits in its queue again."
                    : "Stopped " + namespace + "/" + name + "; it holds no quota and stays out of its queue until"
                    + " resumed.";
            case ALREADY_FINISHED -> namespace + "/" + name + " has finished; it can no longer be stopped or resumed.";
            case NOT_FOUND -> "There is no workload " + namespace + "/" + name + ".";
        };
        redirect.addFlashAttribute("notice", notice);
        return "redirect:/namespaces/" + segment(namespace) + "/workloads/" + segment(name);
    }

    private static String segment(String value) {
        return UriUtils.encodePathSegment(value, StandardCharsets.UTF_8);
    }
}
