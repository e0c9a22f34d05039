package dev.platform.agent.simulation;

import dev.platform.agent.cluster.Cluster;
import dev.platform.agent.cluster.ClusterEvents;
import dev.platform.agent.cluster.ClusterJobSet;
import dev.platform.agent.cluster.ClusterNode;
import dev.platform.agent.cluster.ClusterPod;
import dev.platform.agent.cluster.EvictionOutcome;
import dev.platform.agent.cluster.KubernetesCluster;
import dev.platform.agent.cluster.NodeTaint;
import dev.platform.api.agent.AgentProtocol;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import dev.platform.api.agent.GkeLabels;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An in-memory cluster behind the same port as a real one: nodes of the layout's pools, JobSets
 * whose pods are placed on the pools their affinity allows, run for the JobSet's
 * platform.dev/simulated-runtime (forever without it) and then succeed. Suspending a JobSet
 * removes its pods, as the Job controller would. {@link #failPool} and {@link #recoverPool}
 * inject the node faults a TPU slice suffers.
 *
 * <p>Time comes from the clock given; {@link #advance()} finishes what is due. Watching starts a
 * ticker that advances every 100 ms; tests with a fixed clock call {@link #advance()} themselves.
 *
 * <p>Given a {@link SimulatedClusterFile}, the cluster writes its state there after every change and starts from
 * it: a restarted agent finds its JobSets running (their pods finish when they would have) and its failed pools
 * still failed, as an agent restarted in a real cluster does.
 */
public class SimulatedCluster implements Cluster {

    public static final String RUNTIME_ANNOTATION = "platform.dev/simulated-runtime";
    static final int KEPT_EVENTS = 10_000;
    static final String UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";

    private final Clock clock;
    /** Null for a cluster that lives only in memory. */
    private final SimulatedClusterFile file;
    private final Map<String, ClusterNode> nodes = new LinkedHashMap<>();
    private final Map<String, ObjectNode> jobSets = new LinkedHashMap<>();
    private final Map<String, SimulatedPod> pods = new LinkedHashMap<>();
    /** The newest Events; an API server expires them after an hour, this one keeps the last {@value #KEPT_EVENTS}. */
    private final Map<String, ObjectNode> clusterEvents = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ObjectNode> eldest) {
            return size() > KEPT_EVENTS;
        }
    };
    /** Pod keys by JobSet key and by workload uid, and running pods by when they finish: no operation scans every pod. */
    private final Map<String, Set<String>> podsByJobSet = new HashMap<>();
    private final Map<String, Set<String>> podsByWorkload = new HashMap<>();
    private final PriorityQueue<Finishing> finishing = new PriorityQueue<>(Comparator.comparing(Finishing::at));
    private ClusterEvents events = new Unwatched();
    private ScheduledExecutorService ticker;
    private long podCounter;

    private record Finishing(Instant at, String podKey) {
    }

    private record SimulatedPod(ClusterPod pod, String jobSetKey, Instant finishesAt) {
        SimulatedPod withPhase(String phase) {
            return new SimulatedPod(new ClusterPod(pod.namespace(), pod.name(), pod.workloadUid(), pod.nodeName(), phase,
                    "Running".equals(phase)),
                    jobSetKey, finishesAt);
        }
    }

    public SimulatedCluster(SimulatedClusterLayout layout, Clock clock) {
        this(layout, clock, null);
    }

    /** A cluster kept in {@code file}: as it was written there if it was, else as the layout says. */
    public SimulatedCluster(SimulatedClusterLayout layout, Clock clock, SimulatedClusterFile file) {
        this.clock = clock;
        this.file = file;
        for (SimulatedClusterLayout.Pool pool : layout.pools()) {
            for (int i = 0; i < pool.nodes(); i++) {
                ClusterNode node = healthyNode(pool, pool.name() + "-node-" + i);
                nodes.put(node.name(), node);
            }
        }
        if (file != null) {
            file.read().ifPresent(this::restore);
        }
    }

    private void restore(SimulatedClusterFile.State state) {
        nodes.clear();
        state.nodes().forEach(node -> nodes.put(node.name(), node));
        state.jobSets().forEach(jobSet -> jobSets.put(jobSet.path("metadata").path("namespace").asString() + "/"
                + jobSet.path("metadata").path("name").asString(), jobSet));
        state.pods().forEach(pod -> updatePod(new SimulatedPod(pod.pod(), pod.jobSetKey(), pod.finishesAt())));
        podCounter = state.podCounter();
    }

    /** Writes the state to the file, if the cluster has one: called at the end of every change. */
    private void persist() {
        if (file != null) {
            file.write(new SimulatedClusterFile.State(List.copyOf(nodes.values()), List.copyOf(jobSets.values()),
                    pods.values().stream().map(p -> new SimulatedClusterFile.Pod(p.pod(), p.jobSetKey(), p.finishesAt()))
                            .toList(), podCounter));
        }
    }

    private static ClusterNode healthyNode(SimulatedClusterLayout.Pool pool, String name) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(GkeLabels.NODE_POOL, pool.name());
        labels.put("kubernetes.io/hostname", name);
        if (pool.accelerator() != null) {
            labels.put(GkeLabels.TPU_ACCELERATOR, pool.accelerator());
            labels.put(GkeLabels.TPU_TOPOLOGY, pool.topology());
        }
        return new ClusterNode(name, labels, false, List.of(), "True", pool.chipsPerNode(), pool.chipsPerNode());
    }

    @Override
    public synchronized void watch(ClusterEvents events) {
        this.events = events;
        nodes.values().forEach(events::nodeChanged);
        jobSets.values().forEach(j -> events.jobSetChanged(ClusterJobSet.of(j)));
        pods.values().forEach(p -> events.podChanged(p.pod()));
        if (ticker == null) {
            ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "simulated-cluster");
                thread.setDaemon(true);
                return thread;
            });
            ticker.scheduleWithFixedDelay(this::advance, 100, 100, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public synchronized boolean hasSynced() {
        return !(events instanceof Unwatched);
    }

    @Override
    public synchronized Optional<ClusterJobSet> jobSet(String namespace, String name) {
        return Optional.ofNullable(jobSets.get(namespace + "/" + name)).map(j -> ClusterJobSet.of(j.deepCopy()));
    }

    @Override
    public synchronized List<ClusterPod> podsOf(String workloadUid) {
        return podsByWorkload.getOrDefault(workloadUid, Set.of()).stream().map(key -> pods.get(key).pod()).toList();
    }

    @Override
    public synchronized List<ClusterPod> podsOfJobSet(String namespace, String name) {
        return podsByJobSet.getOrDefault(namespace + "/" + name, Set.of()).stream().map(key -> pods.get(key).pod()).toList();
    }

    @Override
    public synchronized boolean createJobSet(JsonNode jobSet) {
        ObjectNode created = (ObjectNode) jobSet.deepCopy();
        ObjectNode metadata = (ObjectNode) created.get("metadata");
        String key = metadata.path("namespace").asString("default") + "/" + metadata.path("name").asString();
        if (jobSets.containsKey(key)) {
            return false;
        }
        metadata.put("namespace", metadata.path("namespace").asString("default"));
        metadata.put("uid", UUID.randomUUID().toString());
        metadata.put("creationTimestamp", clock.instant().toString());
        jobSets.put(key, created);
        events.jobSetChanged(ClusterJobSet.of(created));
        if (!created.path("spec").path("suspend").asBoolean(false)) {
            startPods(key);
        }
        persist();
        return true;
    }

    @Override
    public synchronized void patchJobSet(String namespace, String name, JsonNode mergePatch) {
        String key = namespace + "/" + name;
        ObjectNode current = jobSets.get(key);
        if (current == null) {
            throw new IllegalStateException("JobSet " + key + " not found");
        }
        boolean wasSuspended = current.path("spec").path("suspend").asBoolean(false);
        ObjectNode patched = (ObjectNode) JsonMergePatch.apply(current, mergePatch);
        jobSets.put(key, patched);
        boolean suspended = patched.path("spec").path("suspend").asBoolean(false);
        if (suspended && !wasSuspended) {
            removePods(key);
        }
        if (!suspended && wasSuspended) {
            status(patched).remove("terminalState");
            startPods(key);
        }
        persist();
        events.jobSetChanged(ClusterJobSet.of(patched));
    }

    @Override
    public synchronized void deleteJobSet(String namespace, String name) {
        String key = namespace + "/" + name;
        if (jobSets.remove(key) != null) {
            removePods(key);
            persist();
            events.jobSetRemoved(namespace, name);
        }
    }

    @Override
    public synchronized void createEvent(JsonNode event) {
        String key = event.path("metadata").path("namespace").asString() + "/" + event.path("metadata").path("name").asString();
        if (clusterEvents.putIfAbsent(key, (ObjectNode) event.deepCopy()) != null) {
            throw new IllegalStateException("event " + key + " already exists");
        }
    }

    @Override
    public synchronized void patchEvent(String namespace, String name, JsonNode mergePatch) {
        ObjectNode event = clusterEvents.get(namespace + "/" + name);
        if (event == null) {
            throw new KubernetesCluster.ClusterCallException(404, "events \"" + name + "\" not found", null);
        }
        clusterEvents.put(namespace + "/" + name, (ObjectNode) JsonMergePatch.apply(event, mergePatch));
    }

    /** The Events written to the simulated cluster, as {@code kubectl get events} would list them. */
    public synchronized List<JsonNode> events() {
        return List.copyOf(clusterEvents.values());
    }

    @Override
    public synchronized EvictionOutcome evictPod(String namespace, String name) {
        if (!pods.containsKey(namespace + "/" + name)) {
            return EvictionOutcome.GONE;
        }
        removePod(namespace + "/" + name);
        persist();
        return EvictionOutcome.EVICTED;
    }

    /** Every node of the pool goes NotReady and unreachable; pods on it fail. */
    public synchronized void failPool(String pool) {
        for (ClusterNode node : poolNodes(pool)) {
            ClusterNode failed = new ClusterNode(node.name(), node.labels(), node.unschedulable(),
                    List.of(new NodeTaint(UNREACHABLE_TAINT, null, NodeTaint.NO_EXECUTE)), "Unknown",
                    node.chipCapacity(), node.chipAllocatable());
            nodes.put(node.name(), failed);
            events.nodeChanged(failed);
        }
        List<String> failedNodes = poolNodes(pool).stream().map(ClusterNode::name).toList();
        for (SimulatedPod pod : List.copyOf(pods.values())) {
            if (failedNodes.contains(pod.pod().nodeName()) && pod.pod().isActive()) {
                updatePod(pod.withPhase("Failed"));
            }
        }
        persist();
    }

    public synchronized void recoverPool(String pool) {
        for (ClusterNode node : poolNodes(pool)) {
            ClusterNode healthy = new ClusterNode(node.name(), node.labels(), false, List.of(), "True",
                    node.chipCapacity(), node.chipCapacity());
            nodes.put(node.name(), healthy);
            events.nodeChanged(healthy);
        }
        persist();
    }

    /**
     * A JobSet as an observer outside the agent sees it: its workload (null unless the platform made it), whether
     * it is suspended or ended, and how many of its pods are neither Succeeded nor Failed.
     */
    public record JobSetState(String namespace, String name, String workloadUid, boolean suspended,
                              String terminalState, int activePods) {
    }

    /** Every JobSet of the cluster, in the order created. */
    public synchronized List<JobSetState> jobSetStates() {
        List<JobSetState> states = new ArrayList<>();
        jobSets.forEach((key, manifest) -> {
            ClusterJobSet jobSet = ClusterJobSet.of(manifest);
            int active = (int) podsByJobSet.getOrDefault(key, Set.of()).stream()
                    .filter(podKey -> pods.get(podKey).pod().isActive()).count();
            states.add(new JobSetState(jobSet.namespace(), jobSet.name(), jobSet.workloadUid(), jobSet.suspended(),
                    jobSet.terminalState(), active));
        });
        return states;
    }

    public synchronized boolean hasPool(String pool) {
        return !poolNodes(pool).isEmpty();
    }

    public synchronized List<ClusterNode> nodes() {
        return List.copyOf(nodes.values());
    }

    /** Finishes the pods whose runtime is over, and the JobSets whose pods all succeeded. */
    public synchronized void advance() {
        Instant now = clock.instant();
        Set<String> touched = new LinkedHashSet<>();
        while (!finishing.isEmpty() && !now.isBefore(finishing.peek().at())) {
            Finishing due = finishing.poll();
            SimulatedPod pod = pods.get(due.podKey());
            // a pod evicted, failed or replaced since is not due any more
            if (pod != null && "Running".equals(pod.pod().phase()) && due.at().equals(pod.finishesAt())) {
                updatePod(pod.withPhase("Succeeded"));
                touched.add(pod.jobSetKey());
            }
        }
        for (String key : touched) {
            ObjectNode jobSet = jobSets.get(key);
            boolean allSucceeded = podsByJobSet.getOrDefault(key, Set.of()).stream()
                    .allMatch(podKey -> "Succeeded".equals(pods.get(podKey).pod().phase()));
            if (jobSet != null && allSucceeded) {
                status(jobSet).put("terminalState", "Completed");
                events.jobSetChanged(ClusterJobSet.of(jobSet));
            }
        }
        if (!touched.isEmpty()) {
            persist();
        }
    }

    private void startPods(String key) {
        ObjectNode jobSet = jobSets.get(key);
        ClusterJobSet view = ClusterJobSet.of(jobSet);
        Duration runtime = runtimeOf(jobSet);
        Instant now = clock.instant();
        for (JsonNode replicatedJob : jobSet.path("spec").path("replicatedJobs")) {
            JsonNode jobSpec = replicatedJob.path("template").path("spec");
            JsonNode podTemplate = jobSpec.path("template");
            int replicas = replicatedJob.path("replicas").asInt(1);
            int parallelism = jobSpec.path("parallelism").asInt(1);
            List<String> candidatePools = poolsFor(podTemplate.path("spec"));
            for (int replica = 0; replica < replicas; replica++) {
                List<ClusterNode> poolNodes = candidatePools.isEmpty() ? List.of()
                        : poolNodes(candidatePools.get(replica % candidatePools.size()));
                for (int index = 0; index < parallelism; index++) {
                    String nodeName = poolNodes.isEmpty() ? null : poolNodes.get(index % poolNodes.size()).name();
                    String name = view.name() + "-" + replicatedJob.path("name").asString("job") + "-" + replica + "-" + index
                            + "-" + Long.toString(++podCounter, 36);
                    String uid = podTemplate.path("metadata").path("labels").path(AgentProtocol.WORKLOAD_UID_LABEL)
                            .asString(view.labels().get(AgentProtocol.WORKLOAD_UID_LABEL));
                    ClusterPod pod = new ClusterPod(view.namespace(), name, uid, nodeName, nodeName == null ? "Pending" : "Running",
                            nodeName != null);
                    updatePod(new SimulatedPod(pod, key, runtime == null || nodeName == null ? null : now.plus(runtime)));
                }
            }
        }
    }

    /** Healthy pools whose nodes carry the pod's nodeSelector labels and that its pool affinity allows. */
    private List<String> poolsFor(JsonNode podSpec) {
        List<String> allowed = new ArrayList<>();
        for (JsonNode term : podSpec.path("affinity").path("nodeAffinity")
                .path("requiredDuringSchedulingIgnoredDuringExecution").path("nodeSelectorTerms")) {
            for (JsonNode expression : term.path("matchExpressions")) {
                if (GkeLabels.NODE_POOL.equals(expression.path("key").asString(""))) {
                    expression.path("values").forEach(v -> allowed.add(v.asString()));
                }
            }
        }
        Map<String, String> selector = new LinkedHashMap<>();
        podSpec.path("nodeSelector").properties().forEach(e -> selector.put(e.getKey(), e.getValue().asString()));
        return nodes.values().stream()
                .filter(n -> n.nodePool() != null && "True".equals(n.ready()))
                .filter(n -> allowed.isEmpty() || allowed.contains(n.nodePool()))
                .filter(n -> selector.entrySet().stream().allMatch(e -> e.getValue().equals(n.labels().get(e.getKey()))))
                .map(ClusterNode::nodePool)
                .distinct()
                .toList();
    }

    /** ISO-8601 (PT90S) or the Kubernetes-style shorthand 500ms, 90s, 5m, 2h. */
    static Duration runtimeOf(JsonNode jobSet) {
        String value = jobSet.path("metadata").path("annotations").path(RUNTIME_ANNOTATION).asString(null);
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.trim().toLowerCase(Locale.ROOT);
        try {
            if (v.startsWith("p")) {
                return Duration.parse(value.trim());
            }
            if (v.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            }
            long amount = Long.parseLong(v.substring(0, v.length() - 1));
            return switch (v.charAt(v.length() - 1)) {
                case 's' -> Duration.ofSeconds(amount);
                case 'm' -> Duration.ofMinutes(amount);
                case 'h' -> Duration.ofHours(amount);
                default -> Duration.ofSeconds(Long.parseLong(v));
            };
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException(RUNTIME_ANNOTATION + " is not a duration: " + value, e);
        }
    }

    private static ObjectNode status(ObjectNode jobSet) {
        return jobSet.get("status") instanceof ObjectNode status ? status : jobSet.putObject("status");
    }

    private void removePods(String jobSetKey) {
        List.copyOf(podsByJobSet.getOrDefault(jobSetKey, Set.of())).forEach(this::removePod);
    }

    private void removePod(String key) {
        SimulatedPod pod = pods.remove(key);
        unindex(podsByJobSet, pod.jobSetKey(), key);
        unindex(podsByWorkload, pod.pod().workloadUid(), key);
        events.podRemoved(pod.pod().namespace(), pod.pod().name());
    }

    private static void unindex(Map<String, Set<String>> index, String owner, String podKey) {
        Set<String> keys = index.get(owner);
        if (keys != null && keys.remove(podKey) && keys.isEmpty()) {
            index.remove(owner);
        }
    }

    private void updatePod(SimulatedPod pod) {
        String key = pod.pod().key();
        pods.put(key, pod);
        podsByJobSet.computeIfAbsent(pod.jobSetKey(), k -> new LinkedHashSet<>()).add(key);
        if (pod.pod().workloadUid() != null) {
            podsByWorkload.computeIfAbsent(pod.pod().workloadUid(), k -> new LinkedHashSet<>()).add(key);
        }
        if (pod.finishesAt() != null && "Running".equals(pod.pod().phase())) {
            finishing.add(new Finishing(pod.finishesAt(), key));
        }
        events.podChanged(pod.pod());
    }

    private List<ClusterNode> poolNodes(String pool) {
        return nodes.values().stream().filter(n -> pool.equals(n.nodePool())).toList();
    }

    @Override
    public synchronized void close() {
        if (ticker != null) {
            ticker.shutdownNow();
        }
    }

    /** Events before anyone watches go nowhere: watch() replays the state. */
    private static final class Unwatched implements ClusterEvents {
        @Override
        public void nodeChanged(ClusterNode node) {
        }

        @Override
        public void nodeRemoved(String name) {
        }

        @Override
        public void podChanged(ClusterPod pod) {
        }

        @Override
        public void podRemoved(String namespace, String name) {
        }

        @Override
        public void jobSetChanged(ClusterJobSet jobSet) {
        }

        @Override
        public void jobSetRemoved(String namespace, String name) {
        }
    }
}
