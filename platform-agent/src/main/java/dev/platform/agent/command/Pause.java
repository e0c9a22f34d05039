package dev.platform.agent.command;

/** A sleep that gives up, keeping the interrupt, when the poller is stopped on loss of leadership. */
final class Pause {

    private Pause() {
    }

    /** @return false when interrupted: the caller stops what it was doing. */
    static boolean of(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
