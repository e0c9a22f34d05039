package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.cluster.ClusterWorkloads;
import dev.platform.scheduler.commit.WorkloadDecision;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.workload.WorkloadRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

import java.util.Map;
import java.util.function.Function;

/**
 * One log line per committed decision (logger {@code dev.platform.scheduler.decisions}) naming the
 * workload, its ClusterQueue and the cluster it runs in: in the message for text logs, and as
 * key-value pairs that structured logging ({@code logging.structured.format.console=ecs}) turns
 * into fields of their own.
 */
final class DecisionLog {

    private static final Logger log = LoggerFactory.getLogger("dev.platform.scheduler.decisions");

    private DecisionLog() {
    }

    static void admitted(Decision.Admit admit, String cluster) {
        line("admitted", admit.workload().namespace(), admit.workload().name(), admit.admission().clusterQueue(), cluster)
                .log("");
    }

    static void preempted(Decision.Preempt preempt, String cluster) {
        line("preempted", preempt.workload().namespace(), preempt.workload().name(), preempt.victimClusterQueue(), cluster)
                .addKeyValue("reason", preempt.reason().name())
                .addKeyValue("preemptor", preempt.preemptor().namespace() + "/" + preempt.preemptor().name())
                .log(": " + preempt.message());
    }

    static void evicted(Decision.Evict evict, String cluster) {
        line("evicted", evict.workload().namespace(), evict.workload().name(), evict.clusterQueue(), cluster)
                .log(": " + evict.message());
    }

    /** The decisions of a cycle that landed, each with the cluster it runs in ({@code rows} by workload uid). */
    static void committed(CycleResult result, CycleDecisions.Outcome outcome, Map<String, WorkloadDecision.Placed> placements,
                          Function<String, WorkloadRow> rows) {
        Function<String, String> clusterOf = uid -> {
            WorkloadRow row = rows.apply(uid);
            return row == null ? null : row.cluster();
        };
        result.admitted().stream().filter(a -> outcome.newVersions().containsKey(a.workload().uid()))
                .forEach(a -> {
                    WorkloadDecision.Placed placed = placements.get(a.workload().uid());
                    admitted(a, placed == null ? null : placed.placement().cluster());
                });
        result.preempted().stream().filter(p -> !outcome.rejectedEvictions().contains(p.workload().uid()))
                .forEach(p -> preempted(p, clusterOf.apply(p.workload().uid())));
        result.evicted().stream().filter(e -> !outcome.rejectedEvictions().contains(e.workload().uid()))
                .forEach(e -> evicted(e, clusterOf.apply(e.workload().uid())));
        if (!outcome.rejectedAdmissions().isEmpty() || !outcome.rejectedEvictions().isEmpty()) {
            log.info("{} admission(s) and {} eviction(s) lost a race and were undone",
                    outcome.rejectedAdmissions().size(), outcome.rejectedEvictions().size());
        }
    }

    /** A committed hotswap that changed the disrupted workload. */
    static void hotswap(HotswapDetector.Decided decided) {
        WorkloadRow row = decided.disrupted();
        HotswapDetector.Result result = decided.result();
        if (!result.newVersions().containsKey(row.uid().toString())) {
            return;
        }
        String cluster = decided.replacement() == null ? row.cluster() : decided.replacement().placement().cluster();
        String outcome = result.outcome().name();
        int victims = result.victimsEvicted().size();
        line("hotswap", row.namespace(), row.name(), row.clusterQueue(), cluster).addKeyValue("outcome", outcome)
                .addKeyValue("victims", victims).log(": " + outcome + ", " + victims + " victim(s)");
    }

    static void admittedByPriority(PriorityOnlyPlacement.Admitted admitted) {
        WorkloadRow row = admitted.workload();
        int victims = admitted.victims().size();
        line("admitted", row.namespace(), row.name(), null, row.cluster()).addKeyValue("victims", victims)
                .log(" by priority only, " + victims + " victim(s)");
    }

    /** A workload whose JobSet its cluster no longer has: requeued, or failed with no restart left. */
    static void jobSetMissing(ClusterWorkloads.MissingJobSet missing, boolean failed) {
        line(failed ? "failed" : "requeued", missing.namespace(), missing.name(), missing.clusterQueue(),
                missing.cluster()).addKeyValue("reason", "JobSetMissing")
                .log(": its JobSet is missing from the cluster");
    }

    /** "{decision} {ns/name} in {ClusterQueue} on {cluster}", continued by the caller's text. */
    private static Line line(String decision, String namespace, String name, String clusterQueue, String cluster) {
        String workload = namespace + "/" + name;
        LoggingEventBuilder event = log.atInfo().addKeyValue("decision", decision).addKeyValue("workload", workload)
                .addKeyValue("clusterQueue", clusterQueue == null ? "" : clusterQueue)
                .addKeyValue("cluster", cluster == null ? "" : cluster);
        return new Line(event, decision + " " + workload + (clusterQueue == null ? "" : " in " + clusterQueue)
                + (cluster == null ? "" : " on " + cluster));
    }

    private record Line(LoggingEventBuilder event, String head) {
        Line addKeyValue(String key, Object value) {
            event.addKeyValue(key, value);
            return this;
        }

        void log(String tail) {
            event.log(head + tail);
        }
    }
}
