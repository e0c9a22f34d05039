package dev.platform.agent.leadership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.platform.agent.testing.MockKubernetes;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Leader election between agent replicas on a coordination.k8s.io/v1 Lease in fabric8's mock API
 * server (CRUD mode; it refuses a PUT with a stale resourceVersion with 409, as the API server
 * does). The test plays crashes by cutting a replica off the API server, and other holders by
 * writing the Lease through fabric8.
 */
class LeaseLeadershipTest {

    private static final String NAMESPACE = "default";
    private static final String LEASE = "platform-agent";
    /** Whole seconds: the Lease stores leaseDurationSeconds. Renew deadline 1.33 s, retry 0.29 s. */
    private static final Duration LEASE_DURATION = Duration.ofSeconds(2);
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private MockKubernetes kube;
    private Watch leaseWatch;
    private final List<Lease> leaseVersions = new CopyOnWriteArrayList<>();
    private final List<Transition> transitions = new CopyOnWriteArrayList<>();
    private final List<Replica> replicas = new ArrayList<>();

    @BeforeEach
    void startCluster() throws IOException {
        kube = new MockKubernetes();
        leaseWatch = lease().watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Lease lease) {
                leaseVersions.add(lease);
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        });
    }

    @AfterEach
    void stop() {
        replicas.forEach(Replica::close);
        leaseWatch.close();
        kube.close();
    }

    @Test
    void oneOfTwoReplicasAcquiresTheLease() {
        Election election = oneOfTwoLeads();

        Lease lease = lease().get();
        assertThat(lease.getSpec().getHolderIdentity()).isEqualTo(election.leader().identity);
        assertThat(lease.getSpec().getRenewTime()).isNotNull();
        assertThat(lease.getSpec().getAcquireTime()).isNotNull();
        assertThat(lease.getSpec().getLeaseDurationSeconds()).isEqualTo(2);
        assertThat(election.follower().leadership.isLeader()).isFalse();
        assertThat(transitions).containsExactly(started(election.leader()));
    }

    @Test
    void theLeaderRenewsAndTheFollowerStaysFollower() {
        Election election = oneOfTwoLeads();
        Lease acquired = lease().get();

        // renewed past twice the lease duration: without renewals the follower would have taken over
        ZonedDateTime expiredTwice = acquired.getSpec().getRenewTime().plus(LEASE_DURATION.multipliedBy(2));
        await().atMost(PATIENCE).until(() -> lease().get().getSpec().getRenewTime().isAfter(expiredTwice));

        Lease renewed = lease().get();
        assertThat(renewed.getSpec().getHolderIdentity()).isEqualTo(election.leader().identity);
        assertThat(renewed.getSpec().getAcquireTime()).isEqualTo(acquired.getSpec().getAcquireTime());
        assertThat(renewed.getSpec().getLeaseTransitions()).isEqualTo(acquired.getSpec().getLeaseTransitions());
        assertThat(election.leader().leadership.isLeader()).isTrue();
        assertThat(election.follower().leadership.isLeader()).isFalse();
        assertThat(transitions).containsExactly(started(election.leader()));
    }

    @Test
    void aClosedLeaderHasStoppedLeadingWhenCloseReturnsAndTheFollowerTakesOver() {
        Election election = oneOfTwoLeads();
        Replica leader = election.leader();
        Replica follower = election.follower();
        int transitionsBefore = lease().get().getSpec().getLeaseTransitions();

        leader.close();

        assertThat(leader.leadership.isLeader()).isFalse();
        assertThat(transitions).startsWith(started(leader), stopped(leader));
        await().atMost(PATIENCE).until(() -> follower.leadership.isLeader());
        Lease lease = lease().get();
        assertThat(lease.getSpec().getHolderIdentity()).isEqualTo(follower.identity);
        assertThat(lease.getSpec().getLeaseTransitions()).isEqualTo(transitionsBefore + 1);
        assertThat(transitions).containsExactly(started(leader), stopped(leader), started(follower));
    }

    @Test
    void aClosedLeaderGivesUpTheLease() {
        Replica only = replica("agent-a");
        await().atMost(PATIENCE).until(() -> only.leadership.isLeader());

        only.close();

        Lease released = lease().get();
        assertThat(released.getSpec().getHolderIdentity()).isNull();
        assertThat(released.getSpec().getLeaseTransitions()).isZero();
        assertThat(transitions).containsExactly(started(only), stopped(only));
    }

    @Test
    void aClosedFollowerGetsNoLeadershipCallbacks() {
        Election election = oneOfTwoLeads();
        Replica leader = election.leader();
        Replica follower = election.follower();

        follower.close();
        leader.close();

        assertThat(transitions).containsExactly(started(leader), stopped(leader));
    }

    @Test
    void aLeaderCutOffFromTheApiServerStepsDownAndTheFollowerTakesOverAfterTheLeaseDuration() {
        Election election = oneOfTwoLeads();
        Replica leader = election.leader();
        Replica follower = election.follower();
        int transitionsBefore = lease().get().getSpec().getLeaseTransitions();

        leader.cutOff();

        await().atMost(PATIENCE).until(() -> follower.leadership.isLeader());
        Lease lease = lease().get();
        assertThat(lease.getSpec().getHolderIdentity()).isEqualTo(follower.identity);
        assertThat(lease.getSpec().getLeaseTransitions()).isEqualTo(transitionsBefore + 1);
        await().atMost(PATIENCE).until(() -> !leader.leadership.isLeader());
        // the cut-off leader steps down at its renew deadline, before the lease it can no longer renew expires
        assertThat(transitions).containsExactly(started(leader), stopped(leader), started(follower));
        await().atMost(PATIENCE).until(() -> holdersInOrder().contains(follower.identity));
        assertThat(holdersInOrder()).containsExactly(leader.identity, follower.identity);
        Lease lastRenewal = lastVersionHeldBy(leader.identity);
        Lease takeover = firstVersionHeldBy(follower.identity);
        assertThat(takeover.getSpec().getAcquireTime())
                .isAfterOrEqualTo(lastRenewal.getSpec().getRenewTime().plus(LEASE_DURATION));
    }

    @Test
    void aLeaderThatFindsTheLeaseTakenStepsDownAndStandsAgainOnceItExpires() {
        Replica only = replica("agent-a");
        await().atMost(PATIENCE).until(() -> only.leadership.isLeader());
        int transitionsBefore = lease().get().getSpec().getLeaseTransitions();

        takeLeaseAs("intruder");

        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(transitions).containsExactly(started(only), stopped(only)));
        // the intruder stops renewing: the replica stands again and takes the expired lease
        // the start callback is recorded just after leadership is taken: await it rather than read it at once
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(transitions).containsExactly(started(only), stopped(only), started(only)));
        // the replica never wrote over the intruder's lease while it was fresh
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(holdersInOrder()).containsExactly(only.identity, "intruder", only.identity));
        Lease intruded = lastVersionHeldBy("intruder");
        Lease retaken = lease().get();
        assertThat(retaken.getSpec().getHolderIdentity()).isEqualTo(only.identity);
        assertThat(retaken.getSpec().getLeaseTransitions()).isEqualTo(transitionsBefore + 1);
        assertThat(retaken.getSpec().getAcquireTime())
                .isAfterOrEqualTo(intruded.getSpec().getRenewTime().plus(LEASE_DURATION));
    }

    private Replica replica(String identity) {
        Replica replica = new Replica(identity);
        replicas.add(replica);
        replica.leadership.start(() -> transitions.add(started(replica)), () -> transitions.add(stopped(replica)));
        return replica;
    }

    /** Two replicas stand; returns once one of them leads and the Lease names it. */
    private Election oneOfTwoLeads() {
        Replica a = replica("agent-a");
        Replica b = replica("agent-b");
        await().atMost(PATIENCE).until(() -> a.leadership.isLeader() != b.leadership.isLeader()
                && lease().get() != null
                && (a.leadership.isLeader() ? a : b).identity.equals(lease().get().getSpec().getHolderIdentity()));
        return a.leadership.isLeader() ? new Election(a, b) : new Election(b, a);
    }

    /** Another holder writes the Lease; a write that loses to a renewal (409) reads again and retries. */
    private void takeLeaseAs(String holder) {
        await().atMost(PATIENCE)
                .ignoreExceptionsMatching(e -> e instanceof KubernetesClientException k && k.getCode() == HttpURLConnection.HTTP_CONFLICT)
                .until(() -> lease().edit(l -> new LeaseBuilder(l).editSpec()
                        .withHolderIdentity(holder).withRenewTime(ZonedDateTime.now()).endSpec().build()) != null);
    }

    private Resource<Lease> lease() {
        return kube.client().leases().inNamespace(NAMESPACE).withName(LEASE);
    }

    private Lease lastVersionHeldBy(String holder) {
        return leaseVersions.stream().filter(l -> holder.equals(l.getSpec().getHolderIdentity()))
                .reduce((first, second) -> second).orElseThrow(AssertionError::new);
    }

    private Lease firstVersionHeldBy(String holder) {
        return leaseVersions.stream().filter(l -> holder.equals(l.getSpec().getHolderIdentity()))
                .findFirst().orElseThrow(AssertionError::new);
    }

    /** Holders as the Lease went through them, each run of renewals counted once. */
    private List<String> holdersInOrder() {
        List<String> holders = new ArrayList<>();
        for (Lease version : leaseVersions) {
            String holder = version.getSpec().getHolderIdentity();
            if (holders.isEmpty() || !Objects.equals(holders.get(holders.size() - 1), holder)) {
                holders.add(holder);
            }
        }
        return holders;
    }

    private static Transition started(Replica replica) {
        return new Transition(replica.identity, true);
    }

    private static Transition stopped(Replica replica) {
        return new Transition(replica.identity, false);
    }

    private record Election(Replica leader, Replica follower) {
    }

    /** One leadership callback, in the order the callbacks ran. */
    private record Transition(String replica, boolean leading) {
    }

    /** An agent replica; cutting it off fails its requests as a crashed or partitioned pod's would. */
    private final class Replica implements AutoCloseable {

        private final String identity;
        private final AtomicBoolean cutOff = new AtomicBoolean();
        private final LeaseLeadership leadership;
        private final AtomicBoolean closed = new AtomicBoolean();

        Replica(String identity) {
            this.identity = identity;
            ApiClient client = kube.apiClient();
            client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(chain -> {
                if (cutOff.get()) {
                    throw new IOException(identity + " is cut off from the API server");
                }
                return chain.proceed(chain.request());
            }).build());
            this.leadership = new LeaseLeadership(client, NAMESPACE, LEASE, identity, LEASE_DURATION);
        }

        void cutOff() {
            cutOff.set(true);
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                leadership.close();
            }
        }
    }

    @Test
    void aLeaseDurationTheLeaseCannotStoreIsRefusedAtOnce() {
        ApiClient client = kube.apiClient();
        for (Duration bad : List.of(Duration.ofMillis(500), Duration.ofMillis(1500), Duration.ZERO)) {
            assertThatThrownBy(() -> new LeaseLeadership(client, "default", "platform-agent", "a", bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("whole number of seconds").hasMessageContaining(bad.toString());
        }
    }
}
