package dev.platform.web.token;

import dev.platform.api.identity.Caller;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The caller's own API tokens, for scripts and curl: create one (its secret shown once, on the page the form
 * redirects to, never again), or one inside a kubeconfig file for kubectl, see when each expires, revoke one. Every
 * signed-in user has this page, an Admin with only a password included.
 */
@Controller
public class TokenPageController {

    static final int DEFAULT_LIFETIME_DAYS = 90;
    static final int MAX_LIFETIME_DAYS = 366;
    /** The file name a browser saves the kubeconfig under, as {@code POST /api/v1/kubeconfig} names it. */
    static final String KUBECONFIG_FILE = "platform.kubeconfig";
    static final MediaType KUBECONFIG_MEDIA_TYPE = MediaType.parseMediaType("application/yaml");

    private final ApiTokenAccess tokens;

    public TokenPageController(ApiTokenAccess tokens) {
        this.tokens = tokens;
    }

    @GetMapping("/tokens")
    public String tokens(Caller caller, Model model) {
        return page(caller, model);
    }

    /**
     * Post-redirect-get: a reload of the page that shows the new secret reads the page again instead of posting the
     * form again, which would mint another token. The secret travels in a flash attribute, kept in the session only
     * until that one GET reads it.
     */
    @PostMapping("/tokens")
    public String create(@RequestParam(required = false) String description,
                         @RequestParam(defaultValue = "" + DEFAULT_LIFETIME_DAYS) String lifetimeDays,
                         Caller caller, Model model, HttpServletResponse response, RedirectAttributes redirect) {
        try {
            redirect.addFlashAttribute("created", tokens.create(caller, description, Duration.ofDays(days(lifetimeDays))));
            return "redirect:/tokens";
        } catch (IllegalArgumentException e) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            model.addAttribute("error", e.getMessage());
            return page(caller, model);
        }
    }

    /**
     * The kubeconfig file is the form's answer, a download rather than a page: the token in it is shown nowhere else,
     * so it travels neither in a redirect nor in a flash attribute. A refused form answers the page with the reason.
     */
    @PostMapping("/tokens/kubeconfig")
    public Object kubeconfig(@RequestParam(required = false) String description,
                             @RequestParam(defaultValue = "" + DEFAULT_LIFETIME_DAYS) String lifetimeDays,
                             Caller caller, Model model, HttpServletRequest request, HttpServletResponse response) {
        try {
            String kubeconfig = tokens.kubeconfig(caller, description, Duration.ofDays(days(lifetimeDays)),
                    request.getServerName());
            return ResponseEntity.ok()
                    .contentType(KUBECONFIG_MEDIA_TYPE)
                    .header(HttpHeaders.CONTENT_DISPOSITION,
                            ContentDisposition.attachment().filename(KUBECONFIG_FILE).build().toString())
                    .header(HttpHeaders.CACHE_CONTROL, "no-store")
                    .body(kubeconfig.getBytes(StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            model.addAttribute("error", e.getMessage());
            return page(caller, model);
        }
    }

    @PostMapping("/tokens/{id}/revoke")
    public String revoke(@PathVariable long id, Caller caller, RedirectAttributes redirect) {
        redirect.addFlashAttribute("notice", tokens.revoke(caller, id)
                ? "Revoked token " + id + ": requests with it are refused from now on."
                : "You have no token " + id + ".");
        return "redirect:/tokens";
    }

    private String page(Caller caller, Model model) {
        model.addAttribute("nav", "tokens");
        model.addAttribute("tokens", tokens.ownTokens(caller));
        model.addAttribute("defaultLifetimeDays", DEFAULT_LIFETIME_DAYS);
        return "tokens";
    }

    private static long days(String text) {
        long days;
        try {
            days = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            days = 0;
        }
        if (days < 1 || days > MAX_LIFETIME_DAYS) {
            throw new IllegalArgumentException("The lifetime is a whole number of days from 1 to " + MAX_LIFETIME_DAYS
                    + ", not \"" + text + "\".");
        }
        return days;
    }
}
