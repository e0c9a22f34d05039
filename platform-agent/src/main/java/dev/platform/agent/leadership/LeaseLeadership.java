package dev.platform.agent.leadership;

import io.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.kubernetes.client.extended.leaderelection.LeaderElectionRecord;
import io.kubernetes.client.extended.leaderelection.LeaderElector;
import io.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.net.HttpURLConnection;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a coordination.k8s.io/v1 Lease with client-java's LeaderElector. The
 * elector returns when leadership is lost; the replica then stands for election again, so a
 * replica that lost the lease through a network blip can lead again later.
 */
public class LeaseLeadership implements Leadership {

    private static final Logger log = LoggerFactory.getLogger(LeaseLeadership.class);

    /** Give-up attempts on close: a renewal cut short by close can still land and move the resourceVersion. */
    private static final int GIVE_UP_ATTEMPTS = 3;

    private final ApiClient client;
    private final String namespace;
    private final String leaseName;
    private final String identity;
    private final Duration leaseDuration;
    private volatile boolean leader;
    private volatile boolean closed;
    private Thread thread;

    /**
     * @param leaseDuration whole seconds, at least 1: the Lease stores {@code leaseDurationSeconds},
     *                      so a fraction would be cut off (a sub-second lease would be stored as 0)
     */
    public LeaseLeadership(ApiClient client, String namespace, String leaseName, String identity, Duration leaseDuration) {
        if (leaseDuration.compareTo(Duration.ofSeconds(1)) < 0 || leaseDuration.toMillisPart() != 0) {
            throw new IllegalArgumentException("platform.agent.lease-duration must be a whole number of seconds, at least"
                    + " 1s (the Lease stores leaseDurationSeconds); got " + leaseDuration);
        }
        this.client = client;
        this.namespace = namespace;
        this.leaseName = leaseName;
        this.identity = identity;
        this.leaseDuration = leaseDuration;
    }

    @Override
    public synchronized void start(Runnable onStartedLeading, Runnable onStoppedLeading) {
        thread = new Thread(() -> {
            while (!closed) {
                // renew deadline and retry period follow client-go's defaults' ratios (15s / 10s / 2s)
                LeaderElectionConfig config = new LeaderElectionConfig(
                        new LeaseLock(namespace, leaseName, identity, client),
                        leaseDuration, leaseDuration.multipliedBy(2).dividedBy(3), leaseDuration.dividedBy(7));
                try (LeaderElector elector = new LeaderElector(config)) {
                    Term term = new Term(onStartedLeading, onStoppedLeading);
                    elector.run(term::begin, term::end);
                } catch (RuntimeException e) {
                    log.warn("leader election failed", e);
                }
            }
        }, "agent-leader-election");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public boolean isLeader() {
        return leader;
    }

    /**
     * Stops leading before the lease goes: the election thread runs the stop callback, then the
     * lease is given up so a follower takes over without waiting for it to expire.
     */
    @Override
    public synchronized void close() {
        closed = true;
        if (thread == null) {
            return;
        }
        thread.interrupt();
        try {
            thread.join(leaseDuration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        giveUpLease();
    }

    /**
     * The elector gives the lease up when closed too, but with the last renewal's resourceVersion:
     * a renewal interrupted in flight may have landed meanwhile, and the give-up is refused (409).
     * Reads the Lease afresh and clears it while it still names this replica.
     */
    private void giveUpLease() {
        LeaseLock lock = new LeaseLock(namespace, leaseName, identity, client);
        for (int attempt = 0; attempt < GIVE_UP_ATTEMPTS; attempt++) {
            LeaderElectionRecord held;
            try {
                held = lock.get();
            } catch (ApiException e) {
                if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                    log.warn("{} could not read lease {}/{} to give it up: {}", identity, namespace, leaseName, e.getMessage());
                }
                return;
            }
            if (!identity.equals(held.getHolderIdentity())) {
                return;
            }
            LeaderElectionRecord released = new LeaderElectionRecord();
            released.setLeaderTransitions(held.getLeaderTransitions());
            released.setLeaseDurationSeconds(held.getLeaseDurationSeconds());
            if (lock.update(released)) {
                return;
            }
        }
        log.warn("{} could not give up lease {}/{}; it expires after {}", identity, namespace, leaseName, leaseDuration);
    }

    /**
     * One run of the elector. It calls the stop hook whenever it returns, also when it never led
     * (closed while standing), and runs the start hook on another thread, so a start can come
     * after the end: only a term that began reports its end, and a late start is dropped.
     */
    private final class Term {

        private final Runnable onStartedLeading;
        private final Runnable onStoppedLeading;
        private boolean began;
        private boolean ended;

        Term(Runnable onStartedLeading, Runnable onStoppedLeading) {
            this.onStartedLeading = onStartedLeading;
            this.onStoppedLeading = onStoppedLeading;
        }

        synchronized void begin() {
            if (ended) {
                return;
            }
            began = true;
            leader = true;
            log.info("{} leads through lease {}/{}", identity, namespace, leaseName);
            onStartedLeading.run();
        }

        synchronized void end() {
            ended = true;
            if (began) {
                leader = false;
                log.info("{} lost the lease {}/{}", identity, namespace, leaseName);
                onStoppedLeading.run();
            }
        }
    }
}
