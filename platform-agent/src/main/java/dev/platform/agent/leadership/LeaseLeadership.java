package dev.platform.agent.leadership;

import io.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.kubernetes.client.extended.leaderelection.LeaderElector;
import io.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.kubernetes.client.openapi.ApiClient;
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

    private final ApiClient client;
    private final String namespace;
    private final String leaseName;
    private final String identity;
    private final Duration leaseDuration;
    private volatile boolean leader;
    private volatile boolean closed;
    private volatile LeaderElector elector;
    private Thread thread;

    public LeaseLeadership(ApiClient client, String namespace, String leaseName, String identity, Duration leaseDuration) {
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
                try (LeaderElector current = new LeaderElector(config)) {
                    elector = current;
                    current.run(() -> {
                        leader = true;
                        log.info("{} leads through lease {}/{}", identity, namespace, leaseName);
                        onStartedLeading.run();
                    }, () -> {
                        leader = false;
                        log.info("{} lost the lease {}/{}", identity, namespace, leaseName);
                        onStoppedLeading.run();
                    });
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

    @Override
    public void close() {
        closed = true;
        LeaderElector current = elector;
        if (current != null) {
            current.close();
        }
        if (thread != null) {
            thread.interrupt();
        }
    }
}
