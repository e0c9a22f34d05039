package dev.platform.web.login;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import java.util.List;

import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(LoginPageController.class)
class LoginPageControllerTest {

    @Autowired
    MockMvc mvc;

    @MockitoBean
    LoginOptions options;

    @Test
    void offersThePasswordFormAndEachIdentityProvider() throws Exception {
        given(options.identityProviders()).willReturn(List.of(new LoginOptions.Provider("Company SSO",
                "/oauth2/authorization/company")));

        mvc.perform(get("/login"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("<form method=\"post\" action=\"/login\" class=\"login-form\">"),
                        containsString("name=\"username\""), containsString("type=\"password\""),
                        containsString("<a href=\"/oauth2/authorization/company\">Company SSO</a>"))));
    }

    @Test
    void saysWhyALoginFailedAndWhenToTryAgain() throws Exception {
        given(options.identityProviders()).willReturn(List.of());

        mvc.perform(get("/login").param("error", "bad"))
                .andExpect(content().string(allOf(containsString("Wrong user name or password."),
                        not(containsString("Or log in with")))));
        mvc.perform(get("/login").param("error", "throttled").param("retry", "42"))
                .andExpect(content().string(containsString("Too many failed logins. Try again in 42 seconds.")));
        mvc.perform(get("/login").param("logout", ""))
                .andExpect(content().string(containsString("You are logged out.")));
    }

    @Test
    void theForbiddenPageSaysWhoMayOpenWhat() throws Exception {
        mvc.perform(get("/forbidden"))
                .andExpect(status().isForbidden())
                .andExpect(content().string(containsString("Not for your roles")));
    }
}
