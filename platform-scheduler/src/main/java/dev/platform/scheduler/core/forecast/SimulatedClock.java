package dev.platform.scheduler.core.forecast;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Simulated time: it stands still until whoever drives the simulation sets it to the next event. Safe to read from
 * other threads than the one setting it.
 */
public class SimulatedClock extends Clock {

    private volatile Instant now;

    public SimulatedClock(Instant start) {
        this.now = start;
    }

    public void set(Instant instant) {
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
