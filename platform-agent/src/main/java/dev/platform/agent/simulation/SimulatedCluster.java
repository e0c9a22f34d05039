package dev.platform.agent.simulation;

import dev.platform.agent.cluster.Cluster;
import dev.platform.agent.cluster.ClusterEvents;
import dev.platform.agent.cluster.ClusterJob;
import dev.platform.agent.cluster.JobKind;
import dev.platform.agent.cluster.ClusterNode;
import dev.platform.agent.cluster.ClusterPod;
import dev.platform.agent.cluster.ClusterProvisioningRequest;
import dev.platform.agent.cluster.EvictionOutcome;
import dev.platform.agent.cluster.KubernetesCluster;
import dev.platform.agent.cluster.NodeTaint;
import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.ProvisioningRequestReport;
import dev.platform.api.agent.ProvisioningRequestSpec;
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
import tools.jackson.databind.node.JsonNodeFactory;
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
    /** JobSets and Jobs by {@link JobKind#key}. */
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
    private final Map<String, ProvisioningModel> provisioningModels = new HashMap<>();
    /** ProvisioningRequests by namespace/name, in the order created: the autoscaler serves them first come. */
    private final Map<String, SimulatedRequest> requests = new LinkedHashMap<>();
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

    /** A ProvisioningRequest, its conditions by type, when it is due, and the pools provisioned for it. */
    private static final class SimulatedRequest {
        final ProvisioningRequestSpec spec;
        final Instant dueAt;
        final Map<String, ProvisioningRequestReport.Condition> conditions = new LinkedHashMap<>();
        final List<String> pools = new ArrayList<>();

        SimulatedRequest(ProvisioningRequestSpec spec, Instant dueAt) {
            this.spec = spec;
            this.dueAt = dueAt;
        }

        boolean settled() {
            return isTrue("Provisioned") || isTrue("Failed");
        }

        boolean isTrue(String type) {
            ProvisioningRequestReport.Condition c = conditions.get(type);
            return c != null && c.isTrue();
        }
    }

    public SimulatedCluster(SimulatedClusterLayout layout, Clock clock) {
        this(layout, clock, null);
    }

    /** A cluster kept in {@code file}: as it was written there if it was, else as the layout says. */
    public SimulatedCluster(SimulatedClusterLayout layout, Clock clock, SimulatedClusterFile file) {
        this.clock = clock;
        this.file = file;
        this.provisioningModels.putAll(layout.provisioning());
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
        state.jobSets().forEach(job -> jobSets.put(view(job).key(), job));
        state.pods().forEach(pod -> updatePod(new SimulatedPod(pod.pod(), pod.jobSetKey(), pod.finishesAt())));
        podCounter = state.podCounter();
        for (SimulatedClusterFile.Request r : state.requests()) {
            SimulatedRequest request = new SimulatedRequest(r.spec(), r.dueAt());
            r.conditions().forEach(c -> request.conditions.put(c.type(), c));
            request.pools.addAll(r.pools());
            requests.put(r.spec().namespace() + "/" + r.spec().name(), request);
        }
    }

    /** Writes the state to the file, if the cluster has one: called at the end of every change. */
    private void persist() {
        if (file != null) {
            file.write(new SimulatedClusterFile.State(List.copyOf(nodes.values()), List.copyOf(jobSets.values()),
                    pods.values().stream().map(p -> new SimulatedClusterFile.Pod(p.pod(), p.jobSetKey(), p.finishesAt()))
                            .toList(), podCounter,
                    requests.values().stream().map(r -> new SimulatedClusterFile.Request(r.spec, r.dueAt,
                            List.copyOf(r.conditions.values()), List.copyOf(r.pools))).toList()));
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
        jobSets.values().forEach(j -> events.jobChanged(view(j)));
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
    public synchronized Optional<ClusterJob> job(JobKind kind, String namespace, String name) {
        return Optional.ofNullable(jobSets.get(kind.key(namespace, name))).map(j -> view(j.deepCopy()));
    }

    /** A stored JobSet or Job, of the kind its manifest says (the file of a version that knew JobSets only holds those). */
    private static ClusterJob view(ObjectNode object) {
        return ClusterJob.of(JobKind.ofManifest(object.path("apiVersion").asString(""), object.path("kind").asString(""))
                .orElse(JobKind.JOBSET), object);
    }

    @Override
    public synchronized List<ClusterPod> podsOf(String workloadUid) {
        return podsByWorkload.getOrDefault(workloadUid, Set.of()).stream().map(key -> pods.get(key).pod()).toList();
    }

    @Override
    public synchronized List<ClusterPod> podsOfJob(JobKind kind, String namespace, String name) {
        return podsByJobSet.getOrDefault(kind.key(namespace, name), Set.of()).stream().map(key -> pods.get(key).pod()).toList();
    }

    @Override
    public synchronized boolean createJob(JobKind kind, JsonNode object) {
        ObjectNode created = (ObjectNode) object.deepCopy();
        created.put("apiVersion", kind.apiVersion());
        created.put("kind", kind.kind());
        ObjectNode metadata = (ObjectNode) created.get("metadata");
        String key = kind.key(metadata.path("namespace").asString("default"), metadata.path("name").asString());
        if (jobSets.containsKey(key)) {
            return false;
        }
        metadata.put("namespace", metadata.path("namespace").asString("default"));
        metadata.put("uid", UUID.randomUUID().toString());
        metadata.put("creationTimestamp", clock.instant().toString());
        jobSets.put(key, created);
        events.jobChanged(view(created));
        if (!created.path("spec").path("suspend").asBoolean(false)) {
            startPods(key);
        }
        persist();
        return true;
    }

    @Override
    public synchronized void patchJob(JobKind kind, String namespace, String name, JsonNode mergePatch) {
        String key = kind.key(namespace, name);
        ObjectNode current = jobSets.get(key);
        if (current == null) {
            throw new IllegalStateException(kind.kind() + " " + namespace + "/" + name + " not found");
        }
        boolean wasSuspended = current.path("spec").path("suspend").asBoolean(false);
        ObjectNode patched = (ObjectNode) JsonMergePatch.apply(current, mergePatch);
        jobSets.put(key, patched);
        boolean suspended = patched.path("spec").path("suspend").asBoolean(false);
        if (suspended && !wasSuspended) {
            removePods(key);
        }
        if (!suspended && wasSuspended) {
            status(patched).remove(kind == JobKind.JOB ? "conditions" : "terminalState");
            startPods(key);
        }
        persist();
        events.jobChanged(view(patched));
    }

    @Override
    public synchronized void deleteJob(JobKind kind, String namespace, String name) {
        String key = kind.key(namespace, name);
        if (jobSets.remove(key) != null) {
            removePods(key);
            persist();
            events.jobRemoved(kind, namespace, name);
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
            ClusterJob jobSet = view(manifest);
            if (jobSet.kind() != JobKind.JOBSET) {
                return;
            }
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

    /**
     * Finishes the pods whose runtime is over, and the JobSets whose pods all succeeded; provisions the
     * ProvisioningRequests that are due.
     */
    public synchronized void advance() {
        Instant now = clock.instant();
        if (provisionDue(now)) {
            persist();
        }
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
            ObjectNode job = jobSets.get(key);
            boolean allSucceeded = podsByJobSet.getOrDefault(key, Set.of()).stream()
                    .allMatch(podKey -> "Succeeded".equals(pods.get(podKey).pod().phase()));
            if (job != null && allSucceeded) {
                completed(job);
                events.jobChanged(view(job));
            }
        }
        if (!touched.isEmpty()) {
            persist();
        }
    }

    /** How requests of {@code provisioningClass} are answered from now on; null: never. */
    public synchronized void provisioningModel(String provisioningClass, ProvisioningModel model) {
        if (model == null) {
            provisioningModels.remove(provisioningClass);
        } else {
            provisioningModels.put(provisioningClass, model);
        }
    }

    @Override
    public synchronized List<ClusterProvisioningRequest> provisioningRequests() {
        return requests.values().stream().map(r -> new ClusterProvisioningRequest(r.spec.namespace(), r.spec.name(),
                r.spec.workloadUid(), r.spec.admissionCheck(), r.spec.attempt(), r.spec.provisioningClassName(),
                r.spec.podSets().stream().map(ProvisioningRequestSpec.PodSet::podTemplateName).toList(),
                List.copyOf(r.conditions.values()), List.copyOf(r.pools))).toList();
    }

    @Override
    public synchronized void createProvisioningRequest(ProvisioningRequestSpec spec) {
        String key = spec.namespace() + "/" + spec.name();
        if (requests.containsKey(key)) {
            return;
        }
        ProvisioningModel model = provisioningModels.get(spec.provisioningClassName());
        Instant now = clock.instant();
        SimulatedRequest request = new SimulatedRequest(spec, model == null ? null : now.plus(model.delay()));
        if (model != null) {
            condition(request, "Accepted", true, "Accepted", "the request is accepted", now);
            condition(request, "Provisioned", false, "Provisioning", "capacity expected within "
                    + model.delay().toSeconds() + "s", now);
        }
        requests.put(key, request);
        provisionDue(now);
        persist();
    }

    @Override
    public synchronized void deleteProvisioningRequest(ClusterProvisioningRequest request) {
        SimulatedRequest removed = requests.remove(request.key());
        if (removed != null) {
            releasePools(removed);
            persist();
        }
    }

    /** A fault on the request: the autoscaler gives up on it (condition Failed); its pools, if any, go. */
    public synchronized boolean failRequest(String namespace, String name) {
        return fault(namespace, name, "Failed", "ProvisioningFailed", "the simulated autoscaler failed the request");
    }

    /**
     * The request's booking expired (condition BookingExpired): capacity not taken in time goes back, the pools of
     * a request whose pods already run stay theirs.
     */
    public synchronized boolean expireBooking(String namespace, String name) {
        return fault(namespace, name, "BookingExpired", "BookingExpired", "the capacity was not used in time");
    }

    /** The capacity is taken back (condition CapacityRevoked): the pools go, and the pods on them fail. */
    public synchronized boolean revokeCapacity(String namespace, String name) {
        return fault(namespace, name, "CapacityRevoked", "CapacityRevoked", "the provisioned capacity was revoked");
    }

    private boolean fault(String namespace, String name, String type, String reason, String message) {
        SimulatedRequest request = requests.get(namespace + "/" + name);
        if (request == null) {
            return false;
        }
        condition(request, type, true, reason, message, clock.instant());
        boolean inUse = request.pools.stream().anyMatch(this::hasActivePods);
        if (!"BookingExpired".equals(type) || !inUse) {
            releasePools(request);
        }
        persist();
        return true;
    }

    /** The node pools provisioned for requests and not released, by request (namespace/name). */
    public synchronized Map<String, List<String>> provisionedPools() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        requests.forEach((key, r) -> {
            if (!r.pools.isEmpty()) {
                out.put(key, List.copyOf(r.pools));
            }
        });
        return out;
    }

    /** Provisions or fails the requests that are due; true when any was. */
    private boolean provisionDue(Instant now) {
        boolean settled = false;
        for (SimulatedRequest request : requests.values()) {
            ProvisioningModel model = provisioningModels.get(request.spec.provisioningClassName());
            if (model == null || request.dueAt == null || request.settled() || request.isTrue("BookingExpired")
                    || now.isBefore(request.dueAt)) {
                continue;
            }
            List<SimulatedClusterLayout.Pool> pools = slicesFor(request.spec);
            int inUse = requests.values().stream().mapToInt(r -> r.pools.size()).sum();
            if (inUse + pools.size() <= model.maxNodePools()) {
                for (SimulatedClusterLayout.Pool pool : pools) {
                    for (int i = 0; i < pool.nodes(); i++) {
                        ClusterNode node = provisionedNode(pool, pool.name() + "-node-" + i, request.spec);
                        nodes.put(node.name(), node);
                        events.nodeChanged(node);
                    }
                    request.pools.add(pool.name());
                }
                condition(request, "Provisioned", true, "Provisioned", "provisioned " + pools.size()
                        + " node pool(s): " + String.join(", ", request.pools), now);
                settled = true;
            } else if (model.queued()) {
                condition(request, "Provisioned", false, "Queued", "waiting for capacity: " + inUse + " of "
                        + model.maxNodePools() + " node pools provisioned", now);
            } else {
                condition(request, "Failed", true, "CapacityUnavailable", "cannot provision " + pools.size()
                        + " node pool(s) at once: " + inUse + " of " + model.maxNodePools() + " in use", now);
                settled = true;
            }
        }
        return settled;
    }

    /**
     * The pools a request needs: for a TPU pod template (its nodeSelector names a topology, its containers ask
     * chips) one pool per slice, a host per pod; otherwise one pool with a node per pod.
     */
    private static List<SimulatedClusterLayout.Pool> slicesFor(ProvisioningRequestSpec spec) {
        List<SimulatedClusterLayout.Pool> pools = new ArrayList<>();
        String base = "prov-" + (spec.name().length() > 40 ? spec.name().substring(0, 40) : spec.name());
        for (ProvisioningRequestSpec.PodSet podSet : spec.podSets()) {
            JsonNode podSpec = podSet.template() == null ? null : podSet.template().path("spec");
            String accelerator = podSpec == null ? null : podSpec.path("nodeSelector").path(GkeLabels.TPU_ACCELERATOR).asString(null);
            String topology = podSpec == null ? null : podSpec.path("nodeSelector").path(GkeLabels.TPU_TOPOLOGY).asString(null);
            int chips = podSpec == null ? 0 : chipsPerPod(podSpec);
            int hosts = podSet.count();
            if (topology != null && chips > 0) {
                int sliceChips = 1;
                for (String dimension : topology.split("x")) {
                    sliceChips *= Integer.parseInt(dimension.trim());
                }
                hosts = Math.max(1, sliceChips / chips);
            }
            int slices = Math.max(1, (podSet.count() + hosts - 1) / hosts);
            for (int i = 0; i < slices; i++) {
                pools.add(new SimulatedClusterLayout.Pool(base + "-" + podSet.name() + "-" + i, accelerator, topology,
                        hosts, chips));
            }
        }
        return pools;
    }

    private static int chipsPerPod(JsonNode podSpec) {
        int chips = 0;
        for (JsonNode container : podSpec.path("containers")) {
            JsonNode resources = container.path("resources");
            String value = resources.path("requests").path(GkeLabels.TPU_CHIPS)
                    .asString(resources.path("limits").path(GkeLabels.TPU_CHIPS).asString("0"));
            chips += Integer.parseInt(value.trim());
        }
        return chips;
    }

    /** A node of a provisioned pool: the pool's labels and every label the pod template selects nodes by. */
    private static ClusterNode provisionedNode(SimulatedClusterLayout.Pool pool, String name,
                                               ProvisioningRequestSpec spec) {
        ClusterNode node = healthyNode(pool, name);
        Map<String, String> labels = new LinkedHashMap<>();
        for (ProvisioningRequestSpec.PodSet podSet : spec.podSets()) {
            if (podSet.template() != null) {
                podSet.template().path("spec").path("nodeSelector").properties()
                        .forEach(e -> labels.put(e.getKey(), e.getValue().asString()));
            }
        }
        labels.putAll(node.labels());
        return new ClusterNode(node.name(), labels, false, List.of(), "True", node.chipCapacity(),
                node.chipAllocatable());
    }

    private boolean hasActivePods(String pool) {
        Set<String> poolNodes = new java.util.HashSet<>(poolNodes(pool).stream().map(ClusterNode::name).toList());
        return pods.values().stream().anyMatch(p -> p.pod().isActive() && poolNodes.contains(p.pod().nodeName()));
    }

    /** The request's pools go: the pods still on them fail, then their nodes are removed. */
    private void releasePools(SimulatedRequest request) {
        for (String pool : request.pools) {
            List<ClusterNode> poolNodes = poolNodes(pool);
            Set<String> names = new java.util.HashSet<>(poolNodes.stream().map(ClusterNode::name).toList());
            for (SimulatedPod pod : List.copyOf(pods.values())) {
                if (pod.pod().isActive() && names.contains(pod.pod().nodeName())) {
                    updatePod(pod.withPhase("Failed"));
                }
            }
            for (ClusterNode node : poolNodes) {
                nodes.remove(node.name());
                events.nodeRemoved(node.name());
            }
        }
        request.pools.clear();
    }

    private static void condition(SimulatedRequest request, String type, boolean status, String reason,
                                  String message, Instant now) {
        ProvisioningRequestReport.Condition previous = request.conditions.get(type);
        String value = status ? "True" : "False";
        Instant since = previous != null && value.equals(previous.status()) ? previous.lastTransitionTime() : now;
        request.conditions.put(type, new ProvisioningRequestReport.Condition(type, value, reason, message, since));
    }

    private void startPods(String key) {
        ObjectNode jobSet = jobSets.get(key);
        ClusterJob view = view(jobSet);
        Duration runtime = runtimeOf(jobSet);
        Instant now = clock.instant();
        for (JsonNode replicatedJob : replicatedJobs(view)) {
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

    /** A JobSet's replicated jobs; a Job runs as one replica of itself. */
    private static List<JsonNode> replicatedJobs(ClusterJob job) {
        if (job.kind() == JobKind.JOBSET) {
            List<JsonNode> replicatedJobs = new ArrayList<>();
            job.manifest().path("spec").path("replicatedJobs").forEach(replicatedJobs::add);
            return replicatedJobs;
        }
        ObjectNode itself = JsonNodeFactory.instance.objectNode();
        itself.put("name", "job");
        itself.put("replicas", 1);
        itself.putObject("template").set("spec", job.manifest().path("spec"));
        return List.of(itself);
    }

    /** JobSet's controller's status.terminalState, the Job controller's condition Complete. */
    private static void completed(ObjectNode job) {
        if (view(job).kind() == JobKind.JOBSET) {
            status(job).put("terminalState", "Completed");
        } else {
            ObjectNode condition = status(job).putArray("conditions").addObject();
            condition.put("type", "Complete");
            condition.put("status", "True");
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
        public void jobChanged(ClusterJob jobSet) {
        }

        @Override
        public void jobRemoved(JobKind kind, String namespace, String name) {
        }
    }
}
