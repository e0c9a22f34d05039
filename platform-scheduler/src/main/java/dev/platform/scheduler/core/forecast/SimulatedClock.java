package dev.platform.scheduler.core.forecast;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** Simulated time: it stands still until the simulation moves it to the next event. */
final class SimulatedClock extends Clock {

    private Instant now;

    SimulatedClock(Instant start) {
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
