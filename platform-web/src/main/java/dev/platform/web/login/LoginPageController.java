package dev.platform.web.login;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** The console's login page (user name and password, and any identity provider), and the 403 and 404 pages. */
@Controller
public class LoginPageController {

    private final LoginOptions options;

    public LoginPageController(LoginOptions options) {
        this.options = options;
    }

    @GetMapping("/login")
    public String login(@RequestParam(required = false) String error, @RequestParam(required = false) Long retry,
                        @RequestParam(required = false) String logout, Model model) {
        model.addAttribute("providers", options.identityProviders());
        if ("throttled".equals(error)) {
            model.addAttribute("error", "Too many failed logins. Try again in " + (retry == null ? "a while"
                    : retry + " seconds") + ".");
        } else if ("provider".equals(error)) {
            model.addAttribute("error", "The login through the identity provider failed; the platform's log says why.");
        } else if (error != null) {
            model.addAttribute("error", "Wrong user name or password.");
        }
        model.addAttribute("loggedOut", logout != null);
        return "login";
    }

    /**
     * Where a refused console request is forwarded: the status is already 403. The scheduler's
     * security sets the request attribute {@code platform.refusal} to {@code csrf} when a form came
     * without its CSRF token (an expired or copied page), which roles have nothing to do with; and
     * {@code platform.refusal.requirement} to who may make the request and how a user becomes one.
     */
    @RequestMapping("/forbidden")
    public String forbidden(Model model, HttpServletRequest request, HttpServletResponse response) {
        response.setStatus(HttpServletResponse.SC_FORBIDDEN);
        model.addAttribute("csrf", "csrf".equals(request.getAttribute("platform.refusal")));
        model.addAttribute("requirement", request.getAttribute("platform.refusal.requirement"));
        return "forbidden";
    }

    /** Where a console request for a path that no page serves is forwarded. */
    @RequestMapping("/not-found")
    public String notFound(Model model, HttpServletResponse response) {
        response.setStatus(HttpServletResponse.SC_NOT_FOUND);
        model.addAttribute("what", "That page");
        return "not-found";
    }
}
