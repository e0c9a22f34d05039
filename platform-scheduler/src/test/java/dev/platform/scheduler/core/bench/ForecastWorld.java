package dev.platform.scheduler.core.bench;

import dev.platform.scheduler.core.AdmissionCycle;
import dev.platform.scheduler.core.CoreFixtures;
import dev.platform.scheduler.core.FakeClock;
import dev.platform.scheduler.core.SchedulerSettings;
import dev.platform.scheduler.core.SchedulerState;
import dev.platform.scheduler.core.forecast.RuntimeHistory;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.StopPolicy;
import dev.platform.scheduler.core.model.Workload;

import java.time.Duration;
import java.time.Instant;

/**
 * The forecast's benchmark shape: 1,000 ClusterQueues in 100 cohorts of 10 (the cohort trees the forecast
 * simulates one by one), each with 50 cpu of on-demand quota held by 50 admitted 1-cpu workloads (50,000 admitted)
 * and 100 more waiting (100,000 pending), so that every pending workload waits for finishes. Admissions are
 * spread over the last 150 minutes; each LocalQueue has ten observed runtimes around its own median (60 to 180
 * minutes, plus or minus 20%), so every runtime comes from the history of workloads like it.
 */
final class ForecastWorld {

    static final int QUEUES = 1_000;
    static final int ADMITTED_PER_QUEUE = 50;
    static final int PENDING_PER_QUEUE = 100;

    final FakeClock clock = new FakeClock(CoreFixtures.T0);
    final SchedulerState state = new SchedulerState(clock, SchedulerSettings.CLASSICAL);
    final RuntimeHistory history = new RuntimeHistory(100, 3);

    ForecastWorld() {
        state.applyResourceFlavor(CoreFixtures.flavor("on-demand"));
        state.applyResourceFlavor(CoreFixtures.flavor("spot"));
        Instant now = clock.instant();
        for (int q = 0; q < QUEUES; q++) {
            String cq = "cq-" + q;
            String lq = "lq-" + q;
            state.applyClusterQueue(ScaleWorld.clusterQueue(cq, "cohort-" + (q / ScaleWorld.QUEUES_PER_COHORT),
                    ADMITTED_PER_QUEUE * 1_000L, 0));
            state.applyLocalQueue(new LocalQueueSpec("default", lq, cq, StopPolicy.None));
            long median = Duration.ofMinutes(60 + (q % 5) * 30L).toMillis();
            for (int i = 0; i < ADMITTED_PER_QUEUE; i++) {
                Workload w = ScaleWorld.workload(cq + "-a" + i, lq, 1, now.minusSeconds(20_000 - i), 1_000);
                state.addAdmitted(w, ScaleWorld.admission(cq, "on-demand", 1_000), now.minusSeconds(180L * i));
                if (i < 10) {
                    history.record(w, cq, Duration.ofMillis(median * (80 + 4 * i) / 100));
                }
            }
            for (int i = 0; i < PENDING_PER_QUEUE; i++) {
                state.addPending(ScaleWorld.workload(cq + "-p" + i, lq, i % 2, now.plusSeconds(i), 1_000));
            }
        }
        AdmissionCycle.run(state);
    }
}
