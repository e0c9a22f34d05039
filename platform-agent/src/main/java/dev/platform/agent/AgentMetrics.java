package dev.platform.agent;

import dev.platform.agent.cluster.EvictionOutcome;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import dev.platform.api.agent.ReportKind;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The agent's own metrics on {@code /actuator/prometheus} (docs/operations.md lists them):
 * report round trips, command execution, evictions by outcome (429s from PodDisruptionBudgets
 * are {@code blocked}), leadership and informer sync.
 */
public final class AgentMetrics {

    /** Seconds, from a millisecond report to a five-minute eviction wait. */
    private static final Duration[] SLO = {Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
            Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
            Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10),
            Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(120), Duration.ofSeconds(300)};

    private final MeterRegistry registry;

    /** Counters start at zero for every outcome, so a rate is defined before the first 429. */
    public AgentMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (EvictionOutcome outcome : EvictionOutcome.values()) {
            evictions(outcome);
        }
        for (String call : List.of("report", "poll", "result")) {
            schedulerErrors(call);
        }
    }

    /** Gauges read at scrape time. */
    void watch(BooleanSupplier leader, BooleanSupplier informersSynced) {
        Gauge.builder("platform.agent.leader", () -> leader.getAsBoolean() ? 1 : 0)
                .description("1 while this replica holds the Lease and acts for the cluster").register(registry);
        Gauge.builder("platform.agent.informers.synced", () -> informersSynced.getAsBoolean() ? 1 : 0)
                .description("1 once the node, pod, JobSet and Job caches are filled").register(registry);
    }

    /** One report's round trip; {@code outcome} accepted, full_required (409) or failed. */
    public void reportSent(ReportKind kind, String outcome, Duration roundTrip) {
        Timer.builder("platform.agent.report").description("Report round trips to the scheduler")
                .tag("kind", kind.name()).tag("outcome", outcome).serviceLevelObjectives(SLO)
                .register(registry).record(roundTrip);
    }

    /** One command run to its final result. */
    public void commandExecuted(CommandType type, CommandStatus status, Duration took) {
        Timer.builder("platform.agent.command").description("Commands executed, by type and final status")
                .tag("type", type.name()).tag("status", status.name()).serviceLevelObjectives(SLO)
                .register(registry).record(took);
    }

    /** One eviction call; {@code blocked} is the API server's 429 for a PodDisruptionBudget. */
    public void eviction(EvictionOutcome outcome) {
        evictions(outcome).increment();
    }

    private Counter evictions(EvictionOutcome outcome) {
        String name = switch (outcome) {
            case EVICTED -> "evicted";
            case GONE -> "gone";
            case BLOCKED_BY_DISRUPTION_BUDGET -> "blocked";
        };
        return Counter.builder("platform.agent.evictions").description("Pod eviction calls by outcome (blocked = 429)")
                .tag("outcome", name).register(registry);
    }

    /** A call to the scheduler that failed ({@code report}, {@code poll} or {@code result}). */
    public void schedulerUnavailable(String call) {
        schedulerErrors(call).increment();
    }

    private Counter schedulerErrors(String call) {
        return Counter.builder("platform.agent.scheduler.errors").description("Calls to the scheduler that failed")
                .tag("call", call).register(registry);
    }
}
