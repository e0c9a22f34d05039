package dev.platform.scheduler.identity;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.TeamRole;
import dev.platform.scheduler.testsupport.ControllerSliceTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

import java.util.List;
import java.util.Set;

import static org.hamcrest.Matchers.contains;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** {@code GET /api/v1/me}: the resolved caller, exactly its name, cluster role and teams; none is a 500, never anonymous. */
class MeControllerTest extends ControllerSliceTest {

    @Test
    void theCallerIsAnsweredWithExactlyItsNameRoleAndTeams() throws Exception {
        callerIs(LEAD);

        mvc.perform(get("/api/v1/me"))
                .andExpect(status().isOk())
                .andExpect(content().json("""
                        {"name":"alice","clusterRole":null,
                         "teams":[{"team":"vision","role":"TeamLead","namespaces":["team-a"]}]}""", true));
    }

    @Test
    void anAdminHasItsClusterRole() throws Exception {
        mvc.perform(get("/api/v1/me"))
                .andExpect(jsonPath("$.name").value("root"))
                .andExpect(jsonPath("$.clusterRole").value("Admin"))
                .andExpect(jsonPath("$.teams").isEmpty());
    }

    @Test
    void aHandlerReachedWithoutACallerFailsRatherThanServeAnonymously() throws Exception {
        noCaller();

        mvc.perform(get("/api/v1/me"))
                .andExpect(status().isInternalServerError())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail").value("The platform failed to handle the request; the error is logged."))
                .andExpect(jsonPath("$.name").doesNotExist());
    }

    @Test
    void theTeamsNamespacesAreSorted() throws Exception {
        callerIs(new Caller("carol", null,
                List.of(new Caller.Membership("vision", TeamRole.Engineer, Set.of("zeta", "alpha", "mid")))));

        mvc.perform(get("/api/v1/me"))
                .andExpect(jsonPath("$.teams[0].namespaces", contains("alpha", "mid", "zeta")));
    }
}
