package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.core.Decision;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

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

    static void hotswap(String namespace, String name, String clusterQueue, String cluster, String outcome, int victims) {
        line("hotswap", namespace, name, clusterQueue, cluster).addKeyValue("outcome", outcome)
                .addKeyValue("victims", victims).log(": " + outcome + ", " + victims + " victim(s)");
    }

    static void priorityOnly(String namespace, String name, String cluster, int victims) {
        line("admitted", namespace, name, null, cluster).addKeyValue("victims", victims)
                .log(" by priority only, " + victims + " victim(s)");
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
