package dev.platform.scheduler.kubernetes.storage;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.kubernetes.registry.Objects;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStore;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code v1} Events: each workload's timeline, as events on its JobSet or Job and on its Workload, so that
 * {@code kubectl describe} says when it was queued, admitted, preempted or finished and why, as Kueue's events do.
 * {@code kubectl describe} looks them up by the involved object; {@code kubectl get events} lists the newest.
 *
 * <p>An event's resourceVersion is its timeline entry's id, a sequence of its own: lists and watches of Events count
 * in it ({@link #ownRevision}), and a watch ({@code kubectl get events -w}) reads the entries after its
 * resourceVersion in id order. Ids are drawn as entries are written and concurrent writers commit in any order, so,
 * as kine does on its own log, a watch does not pass an id missing below committed ones until the entry appears or
 * {@code gapPatience} has passed since the gap was first seen (its transaction rolled back); a gap below entries
 * written more than an hour ago is history (removed with its workload) and passed at once.
 */
public final class EventStore implements ObjectStore {

    /** Kubernetes keeps an hour of events; a listing of a whole namespace shows at most this many. */
    private static final int NEWEST = 500;
    /** Gaps below entries older than this are history, not writes in flight. */
    private static final Duration HISTORY = Duration.ofHours(1);
    /** How far below the newest entry a list's resourceVersion looks for writes still in flight. */
    private static final int IN_FLIGHT_WINDOW = 1000;
    /** Conditions whose entries are warnings: something went wrong for the workload. */
    private static final Set<String> WARNINGS = Set.of("Evicted", "Preempted", "Failed");
    private static final Map<String, String> OWNER_VERSIONS = Map.of("JobSet", "jobset.x-k8s.io/v1alpha2",
            "Job", "batch/v1");

    private final WorkloadStore store;
    private final Clock clock;
    private final Duration gapPatience;
    /** The first missing id of each gap a watch waits at, and when it was first seen ({@link System#nanoTime}). */
    private final Map<Long, Long> gapsSeen = new ConcurrentHashMap<>();

    public EventStore(WorkloadStore store, Clock clock, Duration gapPatience) {
        this.store = store;
        this.clock = clock;
        this.gapPatience = gapPatience;
    }

    /** The id up to which every entry is committed or given up, looking for gaps near the newest entries only. */
    @Override
    public OptionalLong ownRevision() {
        long settled = Math.max(0, store.lastEventId() - IN_FLIGHT_WINDOW);
        Log read;
        do {
            read = read(settled, IN_FLIGHT_WINDOW);
            settled = read.settledUpTo();
        } while (read.more());
        return OptionalLong.of(settled);
    }

    @Override
    public Changes changesAfter(long revision, int limit, Caller caller) {
        Log read = read(revision, limit);
        List<Change> changes = new ArrayList<>();
        for (WorkloadStore.LoggedEvent logged : read.entries()) {
            WorkloadStore.OwnedEvent owned = logged.owned();
            if (logged.live() && caller.mayRead(owned.namespace())) {
                changes.add(new Change(owned.event().id(), "ADDED", event(owned.uid(), owned.namespace(),
                        owned.name(), owned.kind(), owned.event(), false)));
            }
        }
        return new Changes(changes, read.settledUpTo(), read.more());
    }

    /** Entries after {@code after} up to the first gap still waited for; more when the read stopped at its limit. */
    private Log read(long after, int limit) {
        List<WorkloadStore.LoggedEvent> rows = store.eventsAfter(after, limit);
        List<WorkloadStore.LoggedEvent> entries = new ArrayList<>(rows.size());
        long settled = after;
        for (WorkloadStore.LoggedEvent row : rows) {
            long id = row.owned().event().id();
            if (id > settled + 1 && !givenUp(settled + 1, row.owned().event().at())) {
                return new Log(entries, settled, false);
            }
            entries.add(row);
            settled = id;
        }
        return new Log(entries, settled, rows.size() == limit);
    }

    /** Whether the gap from {@code missing} up to an entry written at {@code nextWrittenAt} is no longer waited for. */
    private boolean givenUp(long missing, Instant nextWrittenAt) {
        if (nextWrittenAt.isBefore(clock.instant().minus(HISTORY))) {
            return true;
        }
        long now = System.nanoTime();
        // a gap given up stays so until the entries after it are history
        gapsSeen.values().removeIf(seen -> now - seen > HISTORY.toNanos());
        long seen = gapsSeen.computeIfAbsent(missing, gap -> now);
        return now - seen >= gapPatience.toNanos();
    }

    private record Log(List<WorkloadStore.LoggedEvent> entries, long settledUpTo, boolean more) {
    }

    @Override
    public Optional<Map<String, Object>> get(String namespace, String name, Caller caller) {
        int dot = name.lastIndexOf('.');
        if (dot < 0) {
            return Optional.empty();
        }
        return list(new ListQuery(namespace, Selector.EVERYTHING, 0, null, Map.of("involvedObject.name",
                name.substring(0, dot)), false), caller).items().stream().filter(e -> name.equals(Objects.name(e))).findFirst();
    }

    @Override
    public Page list(ListQuery query, Caller caller) {
        String involved = query.fields().get("involvedObject.name");
        List<Map<String, Object>> events = new ArrayList<>();
        if (involved != null) {
            String namespace = query.namespace() != null ? query.namespace()
                    : query.fields().get("involvedObject.namespace");
            if (namespace != null && caller.mayRead(namespace)) {
                owner(namespace, involved).ifPresent(owner -> {
                    boolean workload = !involved.equals(owner.name());
                    for (WorkloadStore.WorkloadEvent e : store.events(owner.uid())) {
                        events.add(event(owner.uid(), owner.namespace(), owner.name(), owner.kind(), e, workload));
                    }
                });
            }
        } else {
            for (WorkloadStore.OwnedEvent owned : store.recentEvents(query.namespace(), NEWEST)) {
                if (caller.mayRead(owned.namespace())) {
                    events.add(event(owned.uid(), owned.namespace(), owned.name(), owned.kind(), owned.event(),
                            false));
                }
            }
            events.sort(java.util.Comparator.comparing(e -> String.valueOf(e.get("lastTimestamp"))));
        }
        return new Page(events.stream().filter(query.selector()::matches).toList(), false);
    }

    /** The workload an involved object names: its JobSet or Job by name, or its Workload by Kueue's name. */
    private Optional<WorkloadRow> owner(String namespace, String name) {
        Optional<WorkloadRow> byName = store.find(namespace, name);
        if (byName.isPresent()) {
            return byName;
        }
        for (String kind : OWNER_VERSIONS.keySet()) {
            String prefix = kind.toLowerCase() + "-";
            if (name.startsWith(prefix) && name.length() > prefix.length() + 6) {
                Optional<WorkloadRow> row = store.find(namespace, name.substring(prefix.length(), name.length() - 6))
                        .filter(r -> KueueWorkloadStore.nameOf(r).equals(name));
                if (row.isPresent()) {
                    return row;
                }
            }
        }
        return Optional.empty();
    }

    private static Map<String, Object> event(UUID uid, String namespace, String name, String kind,
                                             WorkloadStore.WorkloadEvent e, boolean onWorkload) {
        boolean derived = OWNER_VERSIONS.containsKey(kind);
        Map<String, Object> involved = new LinkedHashMap<>();
        if (onWorkload || !derived) {
            involved.put("kind", "Workload");
            involved.put("namespace", namespace);
            involved.put("name", derived ? KueueWorkloadStore.workloadName(kind, name, uid) : name);
            involved.put("uid", derived ? UUID.nameUUIDFromBytes(("Workload/" + uid).getBytes(StandardCharsets.UTF_8))
                    .toString() : uid.toString());
            involved.put("apiVersion", "kueue.x-k8s.io/v1beta2");
        } else {
            involved.put("kind", kind);
            involved.put("namespace", namespace);
            involved.put("name", name);
            involved.put("uid", uid.toString());
            involved.put("apiVersion", OWNER_VERSIONS.get(kind));
        }
        String objectName = String.valueOf(involved.get("name"));
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", objectName + "." + Long.toHexString(e.id()) + (onWorkload ? "w" : ""));
        metadata.put("namespace", namespace);
        metadata.put("uid", UUID.nameUUIDFromBytes(("Event/" + e.id() + "/" + onWorkload)
                .getBytes(StandardCharsets.UTF_8)).toString());
        metadata.put("resourceVersion", String.valueOf(e.id()));
        metadata.put("creationTimestamp", Objects.timestamp(e.at()));
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("apiVersion", "v1");
        event.put("kind", "Event");
        event.put("metadata", metadata);
        event.put("involvedObject", involved);
        event.put("reason", e.reason() == null || e.reason().isEmpty() ? e.type() : e.reason());
        event.put("message", e.message() == null ? e.type() + "=" + e.status() : e.message());
        event.put("source", Map.of("component", "kueue-admission"));
        event.put("firstTimestamp", Objects.timestamp(e.at()));
        event.put("lastTimestamp", Objects.timestamp(e.at()));
        event.put("count", 1);
        event.put("type", WARNINGS.contains(e.type()) && "True".equals(e.status()) ? "Warning" : "Normal");
        event.put("reportingComponent", "kueue-admission");
        event.put("reportingInstance", "");
        return event;
    }
}
