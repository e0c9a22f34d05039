package dev.platform.agent.events;

import dev.platform.agent.cluster.Cluster;
import dev.platform.agent.cluster.ClusterJob;
import dev.platform.agent.cluster.KubernetesCluster.ClusterCallException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes core v1 Events on JobSets as client-go's event recorder does: an Event repeating one already written for
 * the same JobSet (same type, reason and message) increments that Event's {@code count} and moves its
 * {@code lastTimestamp} instead of making a new one (the last {@value #REMEMBERED} Events are remembered, as its
 * logger's cache); and each JobSet gets at most a burst of {@value #BURST} Events, then one per five minutes (its
 * spam filter's defaults), the rest dropped and counted.
 */
public class EventRecorder {

    private static final Logger log = LoggerFactory.getLogger(EventRecorder.class);
    static final int REMEMBERED = 4096;
    static final int BURST = 25;
    static final Duration REFILL = Duration.ofMinutes(5);

    private final Cluster cluster;
    private final String component;
    private final String instance;
    private final MeterRegistry registry;
    private final Map<String, Written> recent = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Written> eldest) {
            return size() > REMEMBERED;
        }
    };
    /** The rate limit's buckets of the JobSets written on lately; a JobSet idle for long starts full again. */
    private final Map<String, Bucket> buckets = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
            return size() > REMEMBERED;
        }
    };
    /** Added to the time in an Event's name (client-go's {@code <object>.<hex nanoseconds>}): decisions of one instant. */
    private long sequence;

    private record Written(String namespace, String name, int count) {
    }

    /** A token bucket per JobSet: {@link #BURST} tokens, one more every {@link #REFILL}. */
    private static final class Bucket {
        double tokens = BURST;
        Instant filledAt;

        Bucket(Instant now) {
            filledAt = now;
        }

        boolean take(Instant now) {
            tokens = Math.min(BURST, tokens + (double) Duration.between(filledAt, now).toMillis() / REFILL.toMillis());
            filledAt = now;
            if (tokens < 1) {
                return false;
            }
            tokens--;
            return true;
        }
    }

    /**
     * @param component the Event's {@code source.component} and {@code reportingComponent}
     * @param instance  its {@code reportingInstance}: the agent replica
     */
    public EventRecorder(Cluster cluster, String component, String instance, MeterRegistry registry) {
        this.cluster = cluster;
        this.component = component;
        this.instance = instance;
        this.registry = registry;
        for (String outcome : new String[] {"created", "aggregated", "dropped", "failed"}) {
            counter(outcome);
        }
    }

    /** One Event on {@code jobSet} (a JobSet or a Job), at {@code at}. */
    public synchronized void record(ClusterJob jobSet, String type, String reason, String message, Instant at) {
        String key = jobSet.uid() + "\n" + type + "\n" + reason + "\n" + message;
        if (!buckets.computeIfAbsent(jobSet.uid(), uid -> new Bucket(at)).take(at)) {
            counter("dropped").increment();
            log.debug("event {} on {} dropped: too many for it", reason, jobSet.key());
            return;
        }
        try {
            Written before = recent.get(key);
            if (before != null && increment(before, at)) {
                recent.put(key, new Written(before.namespace(), before.name(), before.count() + 1));
                counter("aggregated").increment();
                return;
            }
            String name = jobSet.name() + "." + Long.toHexString(at.getEpochSecond() * 1_000_000_000L + at.getNano()
                    + sequence++);
            cluster.createEvent(event(jobSet, name, type, reason, message, at));
            recent.put(key, new Written(jobSet.namespace(), name, 1));
            counter("created").increment();
        } catch (ClusterCallException e) {
            counter("failed").increment();
            log.warn("event {} on {} not written: {}", reason, jobSet.key(), e.getMessage());
        }
    }

    /** @return false when the Event is gone (expired after the API server's TTL): a new one is written */
    private boolean increment(Written before, Instant at) {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        patch.put("count", before.count() + 1);
        patch.put("lastTimestamp", at.toString());
        try {
            cluster.patchEvent(before.namespace(), before.name(), patch);
            return true;
        } catch (ClusterCallException e) {
            if (e.status() == 404) {
                return false;
            }
            throw e;
        }
    }

    private ObjectNode event(ClusterJob jobSet, String name, String type, String reason, String message, Instant at) {
        ObjectNode event = JsonNodeFactory.instance.objectNode();
        event.put("apiVersion", "v1");
        event.put("kind", "Event");
        event.putObject("metadata").put("name", name).put("namespace", jobSet.namespace());
        ObjectNode involved = event.putObject("involvedObject");
        involved.put("apiVersion", jobSet.kind().apiVersion());
        involved.put("kind", jobSet.kind().kind());
        involved.put("namespace", jobSet.namespace());
        involved.put("name", jobSet.name());
        involved.put("uid", jobSet.uid());
        event.put("type", type);
        event.put("reason", reason);
        event.put("message", message);
        event.put("count", 1);
        event.put("firstTimestamp", at.toString());
        event.put("lastTimestamp", at.toString());
        event.putObject("source").put("component", component);
        event.put("reportingComponent", component);
        event.put("reportingInstance", instance);
        return event;
    }

    private Counter counter(String outcome) {
        return Counter.builder("platform.agent.events").description("Events on JobSets for the platform's decisions,"
                + " by outcome (aggregated: a repeat counted on the Event written before)")
                .tag("outcome", outcome).register(registry);
    }
}
