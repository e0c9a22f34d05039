package dev.platform.web.live;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.request;

@WebMvcTest(LiveUpdatesController.class)
@Import(LiveUpdates.class)
class LiveUpdatesControllerTest {

    @Autowired
    MockMvc mvc;

    @Autowired
    LiveUpdates updates;

    @MockitoBean
    ConsoleChanges changes;

    @AfterEach
    void closeStreams() {
        updates.stop();
    }

    @Test
    void sendsAChangeEventOnlyWhenTheChangeTokenMoves() throws Exception {
        given(changes.version()).willReturn("1:a", "1:a", "2:a");
        MvcResult stream = mvc.perform(get("/console/events")).andExpect(request().asyncStarted()).andReturn();
        assertThat(updates.subscribers()).isEqualTo(1);

        updates.poll();
        updates.poll();
        assertThat(stream.getResponse().getContentAsString()).doesNotContain("event:");

        updates.poll();
        assertThat(stream.getResponse().getContentAsString()).contains("event:change\nid:2:a\ndata:2:a");
        assertThat(stream.getResponse().getContentType()).startsWith("text/event-stream");
    }

    @Test
    void readsNothingWhileNoBrowserListens() {
        updates.poll();

        org.mockito.Mockito.verifyNoInteractions(changes);
    }
}
