package dev.platform.scheduler.core;

import dev.platform.scheduler.core.forecast.SimulatedClock;

import java.time.Duration;
import java.time.Instant;

/** A clock that only moves when told to. */
public final class FakeClock extends SimulatedClock {

    public FakeClock(Instant start) {
        super(start);
    }

    public void advance(Duration d) {
        set(instant().plus(d));
    }
}
