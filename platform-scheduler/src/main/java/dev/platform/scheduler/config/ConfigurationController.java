package dev.platform.scheduler.config;

import dev.platform.api.identity.Caller;
import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.CohortManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.api.manifest.NamespaceManifest;
import dev.platform.api.manifest.PriorityClassManifest;
import dev.platform.api.manifest.ResourceFlavorManifest;
import dev.platform.api.manifest.TeamManifest;
import dev.platform.api.manifest.WorkloadPriorityClassManifest;
import dev.platform.scheduler.core.LocalQueueUsage;
import dev.platform.scheduler.refusal.Refusal;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Reading and deleting configuration objects. Every signed-in caller reads flavors and priority
 * classes; team members see the queues, namespaces and teams of their own teams (Ops and Admin see
 * all); only Admins delete (the request rules say so).
 */
@RestController
@RequestMapping(path = "/api/v1", produces = "application/json")
public class ConfigurationController {

    private final ConfigStore store;
    private final ConfigurationService configuration;
    private final QueueUsage usage;
    private final LocalQueueUsageStore localQueueUsage;

    public ConfigurationController(ConfigStore store, ConfigurationService configuration, QueueUsage usage,
                                   LocalQueueUsageStore localQueueUsage) {
        this.store = store;
        this.configuration = configuration;
        this.usage = usage;
        this.localQueueUsage = localQueueUsage;
    }

    @GetMapping("/resourceflavors")
    public Items<ResourceFlavorManifest> resourceFlavors() {
        return new Items<>(store.list(Kind.RESOURCE_FLAVOR, ResourceFlavorManifest.class));
    }

    @GetMapping("/resourceflavors/{name}")
    public ResourceFlavorManifest resourceFlavor(@PathVariable String name) {
        return store.find(Kind.RESOURCE_FLAVOR, ObjectKey.cluster(name), ResourceFlavorManifest.class)
                .orElseThrow(() -> Refusal.notFound("ResourceFlavor", name));
    }

    @DeleteMapping("/resourceflavors/{name}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void deleteResourceFlavor(@PathVariable String name, Caller caller) {
        configuration.delete(Kind.RESOURCE_FLAVOR, ObjectKey.cluster(name), caller.name());
    }

    /**
     * Cohort objects and implicit cohorts (named by a ClusterQueue without an object), each with
     * its member queues. A team member sees the cohorts holding their queues, with only those queues as members.
     */
    @GetMapping("/cohorts")
    public Items<CohortView> cohorts(Caller caller) {
        Optional<Set<String>> visible = store.clusterQueuesVisibleTo(caller);
        Map<String, CohortView> cohorts = new TreeMap<>();
        if (visible.isEmpty()) {
            for (CohortManifest cohort : store.list(Kind.COHORT, CohortManifest.class)) {
                cohorts.put(cohort.name(), new CohortView(cohort.name(), false, cohort, new ArrayList<>()));
            }
        }
        Map<String, CohortManifest> objects = visible.isEmpty() ? Map.of()
                : store.list(Kind.COHORT, CohortManifest.class).stream()
                        .collect(Collectors.toMap(CohortManifest::name, c -> c));
        for (ClusterQueueManifest queue : store.list(Kind.CLUSTER_QUEUE, ClusterQueueManifest.class)) {
            if (queue.cohort() != null && visible.map(names -> names.contains(queue.name())).orElse(true)) {
                CohortManifest object = objects.get(queue.cohort());
                cohorts.computeIfAbsent(queue.cohort(),
                                n -> new CohortView(n, object == null, object, new ArrayList<>()))
                        .clusterQueues().add(queue.name());
            }
        }
        return new Items<>(List.copyOf(cohorts.values()));
    }

    @GetMapping("/cohorts/{name}")
    public CohortView cohort(@PathVariable String name, Caller caller) {
        return cohorts(caller).items().stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> caller.readsEverything() ? Refusal.notFound("Cohort", name)
                        : Refusal.forbidden("Cohort \"" + name + "\" holds none of your teams' ClusterQueues"));
    }

    @DeleteMapping("/cohorts/{name}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void deleteCohort(@PathVariable String name, Caller caller) {
        configuration.delete(Kind.COHORT, ObjectKey.cluster(name), caller.name());
    }

    @GetMapping("/clusterqueues")
    public Items<ClusterQueueView> clusterQueues(Caller caller) {
        Map<String, List<String>> missing = store.missingFlavorsByClusterQueue();
        Optional<Set<String>> visible = store.clusterQueuesVisibleTo(caller);
        List<ClusterQueueManifest> queues = store.list(Kind.CLUSTER_QUEUE, ClusterQueueManifest.class).stream()
                .filter(q -> visible.map(names -> names.contains(q.name())).orElse(true)).toList();
        Map<String, QueueUsage.Usage> usages = usage.of(queues.stream().map(ClusterQueueManifest::name).toList());
        return new Items<>(queues.stream()
                .map(q -> ClusterQueueView.of(q, missing.getOrDefault(q.name(), List.of()),
                        usages.getOrDefault(q.name(), QueueUsage.Usage.NONE)))
                .toList());
    }

    @GetMapping("/clusterqueues/{name}")
    public ClusterQueueView clusterQueue(@PathVariable String name) {
        ClusterQueueManifest queue = store.find(Kind.CLUSTER_QUEUE, ObjectKey.cluster(name), ClusterQueueManifest.class)
                .orElseThrow(() -> Refusal.notFound("ClusterQueue", name));
        return ClusterQueueView.of(queue, store.missingFlavorsByClusterQueue().getOrDefault(name, List.of()),
                usage.of(List.of(name)).getOrDefault(name, QueueUsage.Usage.NONE));
    }

    @DeleteMapping("/clusterqueues/{name}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void deleteClusterQueue(@PathVariable String name, Caller caller) {
        configuration.delete(Kind.CLUSTER_QUEUE, ObjectKey.cluster(name), caller.name());
    }

    @GetMapping("/localqueues")
    public Items<LocalQueueView> localQueues(Caller caller) {
        return localQueueViews(store.list(Kind.LOCAL_QUEUE, LocalQueueManifest.class).stream()
                .filter(q -> caller.mayRead(q.namespace())).toList());
    }

    @GetMapping("/namespaces/{namespace}/localqueues")
    public Items<LocalQueueView> localQueues(@PathVariable String namespace) {
        return localQueueViews(store.list(Kind.LOCAL_QUEUE, LocalQueueManifest.class).stream()
                .filter(q -> q.namespace().equals(namespace)).toList());
    }

    @GetMapping("/namespaces/{namespace}/localqueues/{name}")
    public LocalQueueView localQueue(@PathVariable String namespace, @PathVariable String name) {
        LocalQueueManifest queue = store.find(Kind.LOCAL_QUEUE, new ObjectKey(namespace, name), LocalQueueManifest.class)
                .orElseThrow(() -> Refusal.notFound("LocalQueue", namespace + "/" + name));
        return localQueueViews(List.of(queue)).items().get(0);
    }

    /** LocalQueues with their admission fair sharing usage, if any was recorded. */
    private Items<LocalQueueView> localQueueViews(List<LocalQueueManifest> queues) {
        Map<String, LocalQueueUsage> usages = queues.isEmpty() ? Map.of() : localQueueUsage.all().stream()
                .collect(Collectors.toMap(LocalQueueUsage::key, u -> u));
        return new Items<>(queues.stream()
                .map(q -> LocalQueueView.of(q, usages.get(q.namespace() + "/" + q.name()))).toList());
    }

    @DeleteMapping("/namespaces/{namespace}/localqueues/{name}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void deleteLocalQueue(@PathVariable String namespace, @PathVariable String name, Caller caller) {
        configuration.delete(Kind.LOCAL_QUEUE, new ObjectKey(namespace, name), caller.name());
    }

    @GetMapping("/priorityclasses")
    public Items<PriorityClassManifest> priorityClasses() {
        return new Items<>(store.list(Kind.PRIORITY_CLASS, PriorityClassManifest.class));
    }

    @GetMapping("/priorityclasses/{name}")
    public PriorityClassManifest priorityClass(@PathVariable String name) {
        return store.find(Kind.PRIORITY_CLASS, ObjectKey.cluster(name), PriorityClassManifest.class)
                .orElseThrow(() -> Refusal.notFound("PriorityClass", name));
    }

    @DeleteMapping("/priorityclasses/{name}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void deletePriorityClass(@PathVariable String name, Caller caller) {
        configuration.delete(Kind.PRIORITY_CLASS, ObjectKey.cluster(name), caller.name());
    }

    @GetMapping("/workloadpriorityclasses")
    public Items<WorkloadPriorityClassManifest> workloadPriorityClasses() {
        return new Items<>(store.list(Kind.WORKLOAD_PRIORITY_CLASS, WorkloadPriorityClassManifest.class));
    }

    @GetMapping("/workloadpriorityclasses/{name}")
    public WorkloadPriorityClassManifest workloadPriorityClass(@PathVariable String name) {
        return store.find(Kind.WORKLOAD_PRIORITY_CLASS, ObjectKey.cluster(name), WorkloadPriorityClassManifest.class)
                .orElseThrow(() -> Refusal.notFound("WorkloadPriorityClass", name));
    }

    @DeleteMapping("/workloadpriorityclasses/{name}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void deleteWorkloadPriorityClass(@PathVariable String name, Caller caller) {
        configuration.delete(Kind.WORKLOAD_PRIORITY_CLASS, ObjectKey.cluster(name), caller.name());
    }

    @GetMapping("/namespaces")
    public Items<NamespaceManifest> namespaces(Caller caller) {
        return new Items<>(store.list(Kind.NAMESPACE, NamespaceManifest.class).stream()
                .filter(n -> caller.mayRead(n.name())).toList());
    }

    @GetMapping("/namespaces/{name}")
    public NamespaceManifest namespace(@PathVariable String name) {
        return store.find(Kind.NAMESPACE, ObjectKey.cluster(name), NamespaceManifest.class)
                .orElseThrow(() -> Refusal.notFound("Namespace", name));
    }

    /**
     * Allowed while LocalQueues and workloads live in the namespace: here a Namespace is only a label source
     * (none is needed to hold them), so deleting it leaves the namespace unlabelled rather than deleting its contents.
     */
    @DeleteMapping("/namespaces/{name}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void deleteNamespace(@PathVariable String name, Caller caller) {
        configuration.delete(Kind.NAMESPACE, ObjectKey.cluster(name), caller.name());
    }

    /** The caller's teams (every team for Ops and Admin). */
    @GetMapping("/teams")
    public Items<TeamManifest> teams(Caller caller) {
        return new Items<>(store.list(Kind.TEAM, TeamManifest.class).stream()
                .filter(t -> caller.readsEverything() || caller.isMemberOf(t.name())).toList());
    }

    @GetMapping("/teams/{name}")
    public TeamManifest team(@PathVariable String name) {
        return store.find(Kind.TEAM, ObjectKey.cluster(name), TeamManifest.class)
                .orElseThrow(() -> Refusal.notFound("Team", name));
    }

    @DeleteMapping("/teams/{name}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void deleteTeam(@PathVariable String name, Caller caller) {
        configuration.delete(Kind.TEAM, ObjectKey.cluster(name), caller.name());
    }

    /** A list response; an object at the top level so fields can be added without breaking clients. */
    public record Items<T>(List<T> items) {
    }

    /** A cohort: {@code implicit} when only named by ClusterQueues; {@code spec} is null then. */
    public record CohortView(String name, boolean implicit, CohortManifest spec, List<String> clusterQueues) {
    }
}
