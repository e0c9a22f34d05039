package dev.platform.scheduler.identity;

import dev.platform.api.identity.ClusterRole;
import dev.platform.scheduler.testsupport.ControllerSliceTest;
import dev.platform.scheduler.refusal.Refusal;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

import java.time.Instant;
import java.util.List;

import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.BDDMockito.willThrow;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** Users over REST: 201 with Location, a view that never shows the password hash, 404 and 409 problems. */
class UserControllerTest extends ControllerSliceTest {

    private static final Instant CREATED = Instant.parse("2026-01-01T10:00:00Z");

    @Test
    void aCreatedUserIs201AtItsLocationWithoutItsHash() throws Exception {
        given(users.create("carol", "a long password", ClusterRole.Ops, ADMIN)).willReturn(
                new UserAccount("carol", "{bcrypt}$2a$10$secret", ClusterRole.Ops, CREATED, "root"));

        mvc.perform(post("/api/v1/users").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\":\"carol\",\"password\":\"a long password\",\"clusterRole\":\"Ops\"}"))
                .andExpect(status().isCreated())
                .andExpect(header().string("Location", "http://localhost/api/v1/users/carol"))
                .andExpect(content().json("""
                        {"name":"carol","clusterRole":"Ops","hasPassword":true,"createdAt":"2026-01-01T10:00:00Z",
                         "createdBy":"root"}""", true));
    }

    @Test
    void usersAreListedUnderItems() throws Exception {
        given(users.list()).willReturn(List.of(new UserAccount("dave", null, null, CREATED, "root")));

        mvc.perform(get("/api/v1/users"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items[0].name").value("dave"))
                .andExpect(jsonPath("$.items[0].hasPassword").value(false))
                .andExpect(jsonPath("$.items[0].passwordHash").doesNotExist());
    }

    @Test
    void theServicesRefusalsAreProblems() throws Exception {
        given(users.find("nobody")).willThrow(Refusal.notFound("User", "nobody"));
        willThrow(Refusal.conflict("\"root\" is the last Admin; create another Admin first", List.of()))
                .given(users).delete("root", ADMIN);

        mvc.perform(get("/api/v1/users/nobody"))
                .andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail").value("User \"nobody\" not found"));
        mvc.perform(delete("/api/v1/users/root"))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail").value("\"root\" is the last Admin; create another Admin first"));
    }

    @Test
    void aDeleteIs204ByTheCaller() throws Exception {
        mvc.perform(delete("/api/v1/users/dave")).andExpect(status().isNoContent());
        then(users).should().delete("dave", ADMIN);
    }

    @Test
    void anUnknownRoleOrNoBodyIs400() throws Exception {
        mvc.perform(post("/api/v1/users").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\":\"carol\",\"clusterRole\":\"Emperor\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
        mvc.perform(post("/api/v1/users").contentType(MediaType.APPLICATION_JSON))
                .andExpect(status().isBadRequest());
        then(users).shouldHaveNoInteractions();
    }
}
