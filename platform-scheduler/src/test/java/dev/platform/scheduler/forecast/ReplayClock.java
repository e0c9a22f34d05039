package dev.platform.scheduler.forecast;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The replay's time: it stands still while the scheduler and the agent work, and jumps from one event to the next
 * when the replay says so. Scheduler, agent and simulated cluster all read it, from their own threads.
 */
final class ReplayClock extends Clock {

    private volatile Instant now;

    ReplayClock(Instant start) {
        this.now = start;
    }

    void set(Instant instant) {
        now = instant;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
