package dev.platform.agent.scheduler;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.random.RandomGenerator;

/**
 * Whether the scheduler answers, as every call to it finds out. Each change is logged once, not each retry of the
 * agent's report, poll and result loops: waiting for a scheduler that has not answered yet (it is starting beside
 * the agent) is normal and said once; losing one that answered is a warning, its return is said too. Until the
 * scheduler has answered once, retries wait at most {@link #FIRST_CONTACT}'s second, so an agent started with
 * its scheduler is connected within a second of the scheduler listening; afterwards the caller's backoff holds.
 */
public final class SchedulerReachability {

    private static final Logger log = LoggerFactory.getLogger(SchedulerReachability.class);

    /** Retries before the scheduler first answered: short, the scheduler is most likely starting. */
    static final Backoff FIRST_CONTACT = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(1));
    /** How long a scheduler that never answered is waited for before the wait is a warning. */
    static final Duration PATIENCE = Duration.ofMinutes(1);

    private enum State { NOT_YET_ANSWERED, ANSWERING, LOST }

    private final URI scheduler;
    private final Clock clock;
    private State state = State.NOT_YET_ANSWERED;
    private Instant since;
    private boolean impatient;

    public SchedulerReachability(URI scheduler, Clock clock) {
        this.scheduler = scheduler;
        this.clock = clock;
    }

    /** The scheduler answered a call (whatever its status: it is there). */
    public synchronized void answered() {
        switch (state) {
            case ANSWERING -> {
                return;
            }
            case NOT_YET_ANSWERED -> log.info("connected to the scheduler at {}", scheduler);
            case LOST -> log.info("the scheduler at {} answers again, after {} s", scheduler, secondsSince());
        }
        state = State.ANSWERING;
        since = clock.instant();
    }

    /** A call found no scheduler listening ({@code why}: the connection's error). */
    public synchronized void unreachable(String why) {
        switch (state) {
            case ANSWERING -> {
                log.warn("lost the scheduler at {} ({}); retrying until it answers", scheduler, why);
                state = State.LOST;
                since = clock.instant();
            }
            case NOT_YET_ANSWERED -> {
                if (since == null) {
                    since = clock.instant();
                    log.info("waiting for the scheduler at {} to answer ({}); retrying each second", scheduler, why);
                } else if (!impatient && !clock.instant().isBefore(since.plus(PATIENCE))) {
                    impatient = true;
                    log.warn("the scheduler at {} has not answered for {} s ({}); still retrying each second:"
                            + " is platform.agent.scheduler-url right?", scheduler, secondsSince(), why);
                }
            }
            case LOST -> {
            }
        }
    }

    /** How long to wait before retry {@code attempt} (0 for the first): {@code backoff}'s, short until the first answer. */
    public synchronized Duration retryDelay(Backoff backoff, int attempt, RandomGenerator random) {
        return (state == State.NOT_YET_ANSWERED ? FIRST_CONTACT : backoff).delay(attempt, random);
    }

    private long secondsSince() {
        return Duration.between(since, clock.instant()).toSeconds();
    }
}
