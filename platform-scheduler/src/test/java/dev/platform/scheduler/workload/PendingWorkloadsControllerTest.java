package dev.platform.scheduler.workload;

import dev.platform.scheduler.testsupport.ControllerSliceTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.never;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Kueue's visibility API over REST: offset and limit passed through as Kueue's are, out-of-range ones a 400,
 * Kueue's field names, and a team member's page holding only their own workloads with positions unchanged.
 */
class PendingWorkloadsControllerTest extends ControllerSliceTest {

    private static final Instant CREATED = Instant.parse("2026-01-01T10:00:00Z");

    private static PendingWorkloadsController.PendingWorkload pending(String namespace, String name, int inCq, int inLq) {
        return new PendingWorkloadsController.PendingWorkload(namespace, name, UUID.nameUUIDFromBytes(name.getBytes()), "lq", "cq", 10, inCq, inLq,
                CREATED, new WorkloadStatus.PendingReason("WaitingForQuota", "needs 4 cpu"),
                new WorkloadStatus.Forecast(CREATED.plusSeconds(600), CREATED.plusSeconds(300), CREATED.plusSeconds(900),
                        "ExactRuntimes", "in about 10 minutes", CREATED, false,
                        CREATED.plusSeconds(480), "ArrivalHistory"), "high-priority-job", "alice");
    }

    @Test
    void aClusterQueuesPageHasKueuesFieldsAndTheForecast() throws Exception {
        given(workloadStore.pendingInClusterQueue("cq", 20, 10)).willReturn(List.of(pending("team-a", "train", 20, 3)));

        mvc.perform(get("/api/v1/clusterqueues/cq/pendingworkloads").param("offset", "20").param("limit", "10"))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
                .andExpect(jsonPath("$.items[0].namespace").value("team-a"))
                .andExpect(jsonPath("$.items[0].localQueueName").value("lq"))
                .andExpect(jsonPath("$.items[0].positionInClusterQueue").value(20))
                .andExpect(jsonPath("$.items[0].positionInLocalQueue").value(3))
                .andExpect(jsonPath("$.items[0].creationTimestamp").value("2026-01-01T10:00:00Z"))
                .andExpect(jsonPath("$.items[0].pendingReason.code").value("WaitingForQuota"))
                .andExpect(jsonPath("$.items[0].forecast.estimatedAdmissionAt").value("2026-01-01T10:10:00Z"))
                .andExpect(jsonPath("$.items[0].forecast.basis").value("ExactRuntimes"))
                .andExpect(jsonPath("$.items[0].forecast.stale").value(false))
                .andExpect(jsonPath("$.items[0].forecast.ifNothingArrivesAt").value("2026-01-01T10:08:00Z"))
                .andExpect(jsonPath("$.items[0].forecast.arrivalBasis").value("ArrivalHistory"));
    }

    @Test
    void theDefaultsAreOffset0AndLimit100() throws Exception {
        given(workloadStore.pendingInLocalQueue("team-a", "lq", 0, 100)).willReturn(List.of());

        mvc.perform(get("/api/v1/namespaces/team-a/localqueues/lq/pendingworkloads"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items").isEmpty());
        then(workloadStore).should().pendingInLocalQueue("team-a", "lq", 0, 100);
    }

    @Test
    void aTeamMembersPageHoldsTheirWorkloadsAtTheirTruePositions() throws Exception {
        callerIs(ENGINEER);
        given(workloadStore.pendingInClusterQueue("cq", 0, 100)).willReturn(List.of(
                pending("team-b", "theirs", 0, 0), pending("team-a", "mine", 1, 0)));

        mvc.perform(get("/api/v1/clusterqueues/cq/pendingworkloads"))
                .andExpect(jsonPath("$.items.length()").value(1))
                .andExpect(jsonPath("$.items[0].name").value("mine"))
                .andExpect(jsonPath("$.items[0].positionInClusterQueue").value(1));
    }

    @Test
    void aNegativeOffsetOrALimitOutOfRangeIs400() throws Exception {
        for (String[] query : List.of(new String[]{"offset", "-1"}, new String[]{"limit", "0"},
                new String[]{"limit", "1001"})) {
            mvc.perform(get("/api/v1/clusterqueues/cq/pendingworkloads").param(query[0], query[1]))
                    .andExpect(status().isBadRequest())
                    .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                    .andExpect(jsonPath("$.detail").value("offset must be >= 0 and limit between 1 and 1000"));
            mvc.perform(get("/api/v1/namespaces/team-a/localqueues/lq/pendingworkloads").param(query[0], query[1]))
                    .andExpect(status().isBadRequest());
        }
        then(workloadStore).should(never()).pendingInClusterQueue(anyString(), anyInt(), anyInt());
        then(workloadStore).should(never()).pendingInLocalQueue(anyString(), anyString(), anyInt(), anyInt());
    }
}
