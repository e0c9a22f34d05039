package dev.platform.scheduler.leadership;

/** Thrown when another scheduler has taken leadership since this one's epoch: its decisions must not land. */
public final class LeadershipLost extends RuntimeException {

    public LeadershipLost(long mine, Long current) {
        super("leader epoch " + mine + " is no longer current (now " + current + ")");
    }
}
