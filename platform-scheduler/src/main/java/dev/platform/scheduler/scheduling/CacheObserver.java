package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.core.model.Workload;
import dev.platform.scheduler.forecast.ForecastService;
import dev.platform.scheduler.hotswap.HotswapStore;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadState;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;

/**
 * What follows from a workload the cache sees submitted, admitted, start running or end: the submissions, waits and
 * run times the forecast learns from, and a hotswap's last MTTR phase.
 */
@Component
class CacheObserver implements SchedulerCache.Observer {

    private final HotswapStore hotswaps;
    private final ForecastService forecasts;
    private final SchedulingMetrics metrics;
    private final Clock clock;

    CacheObserver(HotswapStore hotswaps, ForecastService forecasts, SchedulingMetrics metrics, Clock clock) {
        this.hotswaps = hotswaps;
        this.forecasts = forecasts;
        this.metrics = metrics;
        this.clock = clock;
    }

    @Override
    public void submitted(Workload workload, WorkloadRow row) {
        forecasts.submitted(workload, row.createdAt());
    }

    @Override
    public void admitted(WorkloadRow row) {
        forecasts.admitted(row.uid().toString(), row.admittedAt());
    }

    @Override
    public void startedRunning(WorkloadRow row) {
        hotswaps.running(row.uid(), clock.instant()).ifPresent(metrics::hotswapRecovered);
    }

    @Override
    public void finished(Workload workload, WorkloadRow row) {
        if (row.state() == WorkloadState.Finished && row.admittedAt() != null && row.finishedAt() != null) {
            forecasts.finished(workload, row.clusterQueue(), Duration.between(row.admittedAt(), row.finishedAt()));
        }
    }
}
