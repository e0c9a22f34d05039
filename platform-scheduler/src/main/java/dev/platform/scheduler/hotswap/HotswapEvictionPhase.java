package dev.platform.scheduler.hotswap;

import dev.platform.api.agent.CommandType;
import dev.platform.scheduler.cluster.AgentCommandCompleted;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import java.time.Duration;

/**
 * MTTR phase "evictions done": when the agent has finished the last STOP of a hotswap's victims,
 * the event is stamped (on whichever replica received the agent's result).
 */
@Component
class HotswapEvictionPhase {

    private final HotswapStore store;
    private final MeterRegistry registry;

    HotswapEvictionPhase(HotswapStore store, MeterRegistry registry) {
        this.store = store;
        this.registry = registry;
    }

    @EventListener
    void onCommandCompleted(AgentCommandCompleted completed) {
        if (completed.type() != CommandType.STOP) {
            return;
        }
        for (HotswapEvent event : store.evictionsDone(completed.workloadUid(), completed.at())) {
            Timer.builder("platform.hotswap.recovery").tag("phase", "evicted").publishPercentileHistogram()
                    .register(registry).record(Duration.between(event.detectedAt(), event.evictionsDoneAt()));
        }
    }
}
