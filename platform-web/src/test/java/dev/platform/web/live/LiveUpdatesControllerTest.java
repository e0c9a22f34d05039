package dev.platform.web.live;

import dev.platform.web.console.CurrentCaller;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import java.util.Optional;
import java.util.Set;

import static dev.platform.web.console.ConsoleFixtures.ADMIN;
import static dev.platform.web.console.ConsoleFixtures.ENGINEER;
import static dev.platform.web.console.ConsoleFixtures.LEAD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.times;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.request;

@WebMvcTest(LiveUpdatesController.class)
@Import(LiveUpdates.class)
class LiveUpdatesControllerTest {

    static final Optional<Set<String>> EVERYTHING = Optional.empty();
    static final Optional<Set<String>> VISION = Optional.of(Set.of("vision-train"));

    @Autowired
    MockMvc mvc;

    @Autowired
    LiveUpdates updates;

    @MockitoBean
    ConsoleChanges changes;

    @MockitoBean
    CurrentCaller caller;

    @AfterEach
    void closeStreams() {
        updates.stop();
    }

    @Test
    void sendsAChangeEventOnlyWhenTheChangeTokenMovesAndNeverTheTokenItself() throws Exception {
        given(caller.get()).willReturn(Optional.of(ADMIN));
        given(changes.version(EVERYTHING)).willReturn("1:a", "1:a", "2:a");
        MvcResult stream = open();
        assertThat(updates.subscribers()).isEqualTo(1);

        updates.poll();
        updates.poll();
        assertThat(stream.getResponse().getContentAsString()).doesNotContain("event:");

        updates.poll();
        String digest = LiveUpdates.digest("2:a");
        assertThat(stream.getResponse().getContentAsString())
                .contains("event:change\nid:" + digest + "\ndata:" + digest).doesNotContain("2:a");
        assertThat(digest).hasSize(16).isNotEqualTo(LiveUpdates.digest("1:a"));
        assertThat(stream.getResponse().getContentType()).startsWith("text/event-stream");
    }

    @Test
    void aTeamsBrowsersFollowTheirTeamsTokenOnlyReadOnceForAll() throws Exception {
        given(changes.version(VISION)).willReturn("v1", "v1", "v2");
        given(changes.version(EVERYTHING)).willReturn("e1", "e2", "e2");
        given(caller.get()).willReturn(Optional.of(ENGINEER));
        MvcResult engineer = open();
        given(caller.get()).willReturn(Optional.of(LEAD));
        MvcResult lead = open();
        given(caller.get()).willReturn(Optional.of(ADMIN));
        MvcResult admin = open();

        updates.poll();
        updates.poll();
        assertThat(engineer.getResponse().getContentAsString()).as("another team's change").doesNotContain("event:");
        assertThat(admin.getResponse().getContentAsString()).contains("event:change");

        updates.poll();
        assertThat(engineer.getResponse().getContentAsString()).contains("data:" + LiveUpdates.digest("v2"));
        assertThat(lead.getResponse().getContentAsString()).contains("data:" + LiveUpdates.digest("v2"));
        then(changes).should(times(3)).version(VISION);
    }

    @Test
    void readsNothingWhileNoBrowserListens() {
        updates.poll();

        org.mockito.Mockito.verifyNoInteractions(changes);
    }

    private MvcResult open() throws Exception {
        return mvc.perform(get("/console/events")).andExpect(request().asyncStarted()).andReturn();
    }
}
