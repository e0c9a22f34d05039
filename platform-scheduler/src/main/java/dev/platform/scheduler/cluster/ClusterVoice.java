package dev.platform.scheduler.cluster;

import dev.platform.api.agent.AgentProtocol;
import dev.platform.scheduler.refusal.Refusal;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The agent instance that speaks for a cluster: the one whose reports the scheduler applies and to which it hands
 * the cluster's commands. One at a time: a second agent for the same cluster (started by mistake beside the first,
 * a replica that believes it leads) would otherwise report an empty cluster and have the running work requeued,
 * then carry out the same commands as the first. Another instance is refused while the current one is alive (its
 * last report is younger than {@code platform.agents.agent-liveness}); it takes over once that one resigned (its
 * last report said it no longer leads) or fell silent.
 *
 * @param instance     the instance that speaks; null when none does
 * @param lastReportAt when the scheduler applied its last report
 */
record ClusterVoice(String instance, Instant lastReportAt) {

    static final ClusterVoice NONE = new ClusterVoice(null, null);

    /** Who a request speaks as: its instance header, or for an agent that sends none, its agent id. */
    static String speaker(String instanceHeader, String agentId) {
        return instanceHeader != null && !instanceHeader.isBlank() ? instanceHeader : agentId;
    }

    boolean isSpeaker(String speaker) {
        return speaker.equals(instance);
    }

    /** Whether {@code speaker} may report now: it speaks already, none does, or the one that does is silent. */
    boolean mayReport(String speaker, Instant now, Duration liveness) {
        return instance == null || isSpeaker(speaker) || !alive(now, liveness);
    }

    private boolean alive(Instant now, Duration liveness) {
        return lastReportAt != null && lastReportAt.plus(liveness).isAfter(now);
    }

    /** The 409 that tells {@code speaker} what is wrong and, in {@code Retry-After}, when to ask again. */
    Refusal refusal(String cluster, String speaker, Instant now, Duration liveness) {
        if (instance == null || !alive(now, liveness)) {
            return Refusal.conflict(AgentProtocol.ANOTHER_AGENT_TITLE, "agent instance " + speaker
                    + " does not speak for cluster " + cluster + ": it takes commands once a FULL report of it is"
                    + " accepted", Duration.ofSeconds(1));
        }
        Duration untilSilent = Duration.between(now, lastReportAt.plus(liveness));
        return Refusal.conflict(AgentProtocol.ANOTHER_AGENT_TITLE, "cluster " + cluster + " is served by agent"
                + " instance " + instance + " (last report " + Duration.between(lastReportAt, now).toSeconds()
                + " s ago); agent instance " + speaker + " is refused while that one is alive. Two agents for one"
                + " cluster would undo each other's work: stop this agent, or stop the other one (it then hands over"
                + " at once), or give this one the cluster it is meant for (platform.agent.cluster-name)",
                Duration.ofSeconds(untilSilent.toSeconds() + 1));
    }
}
