package dev.platform.scheduler.config;

import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.ConfigManifest;
import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.api.manifest.Manifest;
import dev.platform.api.manifest.ResourceGroup;
import dev.platform.api.manifest.ResourceGroup.FlavorQuotas;
import dev.platform.api.manifest.TeamManifest;
import dev.platform.scheduler.identity.TeamStore;
import dev.platform.scheduler.workload.WorkloadTransitions;
import dev.platform.scheduler.refusal.Refusal;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Applies configuration manifests all-or-nothing and idempotently, and deletes objects that
 * nothing references. Every change is audited in the same transaction.
 */
@Service
public class ConfigurationService {

    /** Serialises configuration writers so created/updated/unchanged is decided on a stable view. */
    private static final long CONFIG_LOCK_KEY = 0x636f6e666967L;

    private final ConfigStore store;
    private final JdbcClient jdbc;
    private final ApplicationEventPublisher events;
    private final TeamStore teams;
    private final WorkloadTransitions transitions;
    private final AppliedObjects applied;
    private final Clock clock;

    public ConfigurationService(ConfigStore store, JdbcClient jdbc, ApplicationEventPublisher events, TeamStore teams,
                                WorkloadTransitions transitions, AppliedObjects applied, Clock clock) {
        this.transitions = transitions;
        this.applied = applied;
        this.clock = clock;
        this.store = store;
        this.jdbc = jdbc;
        this.events = events;
        this.teams = teams;
    }

    /**
     * Applies configuration documents in request order (the caller passes only configuration
     * kinds). With {@code dryRun} the outcome is computed the same way and nothing is written.
     */
    @Transactional
    public List<ApplyResult> apply(List<DecodedDocument> documents, boolean dryRun, String actor) {
        lockChanges();
        List<String> ownership = teams.ownershipConflicts(documents.stream()
                .map(DecodedDocument::manifest).filter(TeamManifest.class::isInstance).map(TeamManifest.class::cast)
                .toList());
        if (!ownership.isEmpty()) {
            throw Refusal.conflict(String.join("; ", ownership),
                    ownership.stream().map(c -> Map.of("message", c)).toList());
        }
        Map<Kind, Map<ObjectKey, String>> current = currentSpecs(documents);
        References known = references(documents);
        List<ApplyResult> results = new ArrayList<>(documents.size());
        boolean changed = false;
        for (DecodedDocument document : documents) {
            ConfigManifest manifest = (ConfigManifest) document.manifest();
            ObjectKey key = ObjectKey.of(manifest);
            String before = current.get(manifest.kind()).get(key);
            boolean sameSpec = before != null && store.sameSpec(before, manifest);
            String action;
            if (before == null) {
                action = "created";
            } else if (sameSpec && applied.sameSource(manifest.kind(), key, document.source())) {
                action = "unchanged";
            } else {
                // A new spec, or the same spec written with other labels or annotations.
                action = "updated";
            }
            if (!dryRun && !action.equals("unchanged")) {
                if (before == null) {
                    store.insert(manifest);
                } else if (!sameSpec) {
                    store.update(manifest);
                }
                store.audit(actor, manifest.kind(), key, action, before, store.specJson(manifest));
                applied.store(manifest.kind(), key, document.source(), !sameSpec, clock.instant());
                changed = true;
            }
            results.add(new ApplyResult(manifest.kind().manifestName(), manifest.namespace(), manifest.name(),
                    action, withMissingReferences(document, known)));
        }
        if (changed && !dryRun && documents.stream().anyMatch(d -> d.manifest().kind() == Kind.LOCAL_QUEUE)) {
            resolveClusterQueuesOfPendingWorkloads();
        }
        if (changed && !dryRun) {
            events.publishEvent(new ConfigurationChanged());
        }
        return results;
    }

    /**
     * A document's warnings, and one for each object it names that neither exists nor comes in the same request: a
     * ClusterQueue's ResourceFlavor (the queue is inactive, FlavorNotFound, until it exists), a LocalQueue's
     * ClusterQueue (its workloads wait), a team's priority class (likely a typo, which would refuse the team's
     * workloads that name the class meant). Said, not refused: as in Kueue, the object may be applied later.
     */
    private List<String> withMissingReferences(DecodedDocument document, References known) {
        List<String> all = new ArrayList<>(document.warnings());
        Manifest manifest = document.manifest();
        if (manifest instanceof ClusterQueueManifest queue) {
            List<ResourceGroup> groups = queue.resourceGroups() == null ? List.of() : queue.resourceGroups();
            for (int i = 0; i < groups.size(); i++) {
                List<FlavorQuotas> flavors = groups.get(i).flavors();
                for (int j = 0; j < flavors.size(); j++) {
                    String flavor = flavors.get(j).name();
                    if (!known.flavors().contains(flavor)) {
                        all.add("spec.resourceGroups[" + i + "].flavors[" + j + "].name: ResourceFlavor \"" + flavor
                                + "\" not found; the ClusterQueue admits nothing (inactive, FlavorNotFound) until it is"
                                + " applied");
                    }
                }
            }
        } else if (manifest instanceof LocalQueueManifest localQueue && localQueue.clusterQueue() != null
                && !known.clusterQueues().contains(localQueue.clusterQueue())) {
            all.add("spec.clusterQueue: ClusterQueue \"" + localQueue.clusterQueue() + "\" not found; workloads"
                    + " submitted to the LocalQueue wait until it is applied");
        } else if (manifest instanceof TeamManifest team && team.allowedPriorityClasses() != null) {
            team.allowedPriorityClasses().stream().filter(c -> !known.priorityClasses().contains(c)).forEach(c -> all.add(
                    "spec.allowedPriorityClasses: '" + c + "' is no PriorityClass or WorkloadPriorityClass (yet); the"
                            + " team's workloads may name it once one exists"));
        }
        return all;
    }

    /** Of the objects a request's documents name, those that exist or come in the request, by kind. */
    private record References(Set<String> flavors, Set<String> clusterQueues, Set<String> priorityClasses) {
    }

    /** One read per kind named, whatever the number of documents naming it. */
    private References references(List<DecodedDocument> documents) {
        List<String> flavors = new ArrayList<>();
        List<String> clusterQueues = new ArrayList<>();
        List<String> priorityClasses = new ArrayList<>();
        for (DecodedDocument document : documents) {
            if (document.manifest() instanceof ClusterQueueManifest queue && queue.resourceGroups() != null) {
                queue.resourceGroups().forEach(g -> g.flavors().forEach(f -> flavors.add(f.name())));
            } else if (document.manifest() instanceof LocalQueueManifest localQueue && localQueue.clusterQueue() != null) {
                clusterQueues.add(localQueue.clusterQueue());
            } else if (document.manifest() instanceof TeamManifest team && team.allowedPriorityClasses() != null) {
                priorityClasses.addAll(team.allowedPriorityClasses());
            }
        }
        return new References(known(flavors, documents, Set.of(Kind.RESOURCE_FLAVOR), "resource_flavor"),
                known(clusterQueues, documents, Set.of(Kind.CLUSTER_QUEUE), "cluster_queue"),
                known(priorityClasses, documents, Set.of(Kind.PRIORITY_CLASS, Kind.WORKLOAD_PRIORITY_CLASS),
                        "priority_class"));
    }

    /** Which of {@code names} exist in {@code table} or come in this request as one of {@code kinds}. */
    private Set<String> known(List<String> names, List<DecodedDocument> documents, Set<Kind> kinds, String table) {
        if (names.isEmpty()) {
            return Set.of();
        }
        Set<String> known = new HashSet<>(jdbc.sql("SELECT name FROM " + table + " WHERE name IN (:names)")
                .param("names", names.stream().distinct().toList()).query(String.class).list());
        documents.stream().map(DecodedDocument::manifest).filter(m -> kinds.contains(m.kind()))
                .forEach(m -> known.add(m.name()));
        return known;
    }

    /**
     * kueuectl stop / resume clusterqueue and localqueue: sets the queue's {@code spec.stopPolicy} exactly as
     * applying its manifest with that field would, so the change is audited under {@code actor}; 404 when the
     * queue does not exist. Returns the queue as it is now.
     */
    @Transactional
    public ConfigManifest setStopPolicy(Kind kind, ObjectKey key, ClusterQueueManifest.StopPolicy policy, String actor) {
        ConfigManifest changed;
        if (kind == Kind.CLUSTER_QUEUE) {
            ClusterQueueManifest q = store.find(kind, key, ClusterQueueManifest.class)
                    .orElseThrow(() -> Refusal.notFound("ClusterQueue", key.toString()));
            changed = new ClusterQueueManifest(q.name(), q.cohort(), q.resourceGroups(), q.queueingStrategy(),
                    q.namespaceSelector(), q.flavorFungibility(), q.preemption(), q.fairSharing(), policy,
                    q.admissionScope(), q.annotations());
        } else {
            LocalQueueManifest l = store.find(kind, key, LocalQueueManifest.class)
                    .orElseThrow(() -> Refusal.notFound("LocalQueue", key.toString()));
            changed = new LocalQueueManifest(l.namespace(), l.name(), l.clusterQueue(), policy, l.fairSharing());
        }
        apply(List.of(new DecodedDocument(0, changed, List.of())), false, actor);
        return changed;
    }

    /** Deletes one object; 404 when absent, 409 listing what still refers to it. */
    @Transactional
    public void delete(Kind kind, ObjectKey key, String actor) {
        lockChanges();
        List<String> references = store.referencesTo(kind, key.name());
        if (!references.isEmpty()) {
            throw Refusal.conflict(kind.manifestName() + " \"" + key + "\" is still referenced by "
                    + String.join(", ", references), references.stream().map(r -> Map.of("referencedBy", r)).toList());
        }
        String before = store.delete(kind, key)
                .orElseThrow(() -> Refusal.notFound(kind.manifestName(), key.toString()));
        store.audit(actor, kind, key, "deleted", before, null);
        applied.delete(kind, key);
        if (kind == Kind.LOCAL_QUEUE) {
            resolveClusterQueuesOfPendingWorkloads();
        }
        events.publishEvent(new ConfigurationChanged());
    }

    /**
     * Serialises configuration writers, so created/updated/unchanged is decided on a stable view, and then takes the
     * workload writers' lock too: each change's revision ({@code config_audit.revision}) is drawn from the sequence
     * workloads draw from, and in commit order only while one writer at a time draws. Taken first by a caller that
     * must look at the configuration before applying in the same transaction (the Kubernetes API's create, which
     * refuses a name in use).
     */
    public void lockChanges() {
        jdbc.sql("SELECT pg_advisory_xact_lock(?)").param(CONFIG_LOCK_KEY).query().singleValue();
        transitions.lockChanges();
    }

    /**
     * Pending workloads follow their LocalQueue to its ClusterQueue (or to none), so queue
     * positions are counted in the right queue.
     */
    private void resolveClusterQueuesOfPendingWorkloads() {
        transitions.followLocalQueues();
    }

    private Map<Kind, Map<ObjectKey, String>> currentSpecs(List<DecodedDocument> documents) {
        Map<Kind, List<ObjectKey>> keysByKind = documents.stream().map(d -> (ConfigManifest) d.manifest())
                .collect(Collectors.groupingBy(ConfigManifest::kind, LinkedHashMap::new,
                        Collectors.mapping(ObjectKey::of, Collectors.toList())));
        Map<Kind, Map<ObjectKey, String>> current = new LinkedHashMap<>();
        keysByKind.forEach((kind, keys) -> current.put(kind, store.currentSpecs(kind, keys)));
        return current;
    }

    /** Published after a committed change, so the scheduling loop re-reads its configuration. */
    public record ConfigurationChanged() {
    }
}
