package dev.platform.scheduler.performance;

import dev.platform.scheduler.testsupport.PlatformClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Submits a shape's workloads over REST at the times its generator would, with a fixed number of client threads:
 * a submission is sent when it is due, or as soon as a client is free when the platform is slower than the
 * schedule (then arrivals lag, and the lag is reported).
 */
final class ArrivalSubmitter {

    /** What the generation took: every submission's latency, the largest lag behind the schedule, the refusals. */
    record Outcome(int submitted, Latencies latencies, Duration maxLag, List<String> failures) {
    }

    private ArrivalSubmitter() {
    }

    static Outcome submit(PlatformClient api, List<KueueShape.Arrival> arrivals, int clients) {
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(clients);
        Latencies latencies = new Latencies();
        AtomicLong maxLagNanos = new AtomicLong();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(arrivals.size());
        long start = System.nanoTime();
        for (KueueShape.Arrival arrival : arrivals) {
            pool.schedule(() -> {
                long sent = System.nanoTime();
                maxLagNanos.accumulateAndGet(sent - start - arrival.at().toNanos(), Math::max);
                try {
                    PlatformClient.Response response = api.postYaml(
                            "/api/v1/namespaces/" + arrival.namespace() + "/workloads", KueueShape.jobSet(arrival));
                    latencies.add(System.nanoTime() - sent);
                    if (response.status() != 201) {
                        failures.add(arrival.namespace() + "/" + arrival.name() + ": " + response.status() + " "
                                + response.body());
                    }
                } catch (RuntimeException e) {
                    failures.add(arrival.namespace() + "/" + arrival.name() + ": " + e);
                } finally {
                    done.countDown();
                }
            }, arrival.at().toNanos(), TimeUnit.NANOSECONDS);
        }
        try {
            if (!done.await(2, TimeUnit.HOURS)) {
                throw new IllegalStateException("submissions did not end within two hours");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            pool.shutdownNow();
        }
        return new Outcome(arrivals.size() - failures.size(), latencies, Duration.ofNanos(maxLagNanos.get()),
                List.copyOf(failures));
    }
}
