package dev.platform.agent.cluster;

import com.google.gson.Gson;
import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.GkeLabels;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.common.KubernetesType;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Eviction;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import io.kubernetes.client.openapi.models.V1NodeList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.Watchable;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.dynamic.Dynamics;
import io.kubernetes.client.util.generic.options.DeleteOptions;
import io.kubernetes.client.util.generic.options.ListOptions;
import dev.platform.api.agent.ProvisioningRequestSpec;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The cluster port on a real API server: four shared informers (all Nodes, the pods labelled
 * platform.dev/managed=true, all JobSets and all batch Jobs through the generic API) deliver state and changes;
 * commands go through the API directly. Two clients because watches need no read timeout and
 * commands must have one.
 */
public class KubernetesCluster implements Cluster {

    static final String PROVISIONING_GROUP = "autoscaling.x-k8s.io";
    static final String PROVISIONING_VERSION = "v1";
    private static final String WORKLOAD_INDEX = "workload-uid";
    private static final String MANAGED_PODS = AgentProtocol.MANAGED_LABEL + "=true";

    private final JsonMapper json;
    private final CoreV1Api core;
    private final Map<JobKind, GenericKubernetesApi<DynamicKubernetesObject, DynamicKubernetesListObject>> jobs =
            new EnumMap<>(JobKind.class);
    private final GenericKubernetesApi<DynamicKubernetesObject, DynamicKubernetesListObject> events;
    private final GenericKubernetesApi<DynamicKubernetesObject, DynamicKubernetesListObject> provisioningRequests;
    private final GenericKubernetesApi<DynamicKubernetesObject, DynamicKubernetesListObject> podTemplates;
    private final SharedInformerFactory informers;
    /**
     * The JobSet and Job informers hold the same class (untyped objects), and a factory keeps one informer per class:
     * each kind has a factory of its own.
     */
    private final Map<JobKind, SharedInformerFactory> jobInformerFactories = new EnumMap<>(JobKind.class);
    private final SharedIndexInformer<V1Node> nodeInformer;
    private final SharedIndexInformer<V1Pod> podInformer;
    private final Map<JobKind, SharedIndexInformer<DynamicKubernetesObject>> jobInformers = new EnumMap<>(JobKind.class);
    private final DeliveredObjects<V1Node> deliveredNodes = new DeliveredObjects<>();
    private final DeliveredObjects<V1Pod> deliveredPods = new DeliveredObjects<>();
    private final Map<JobKind, DeliveredObjects<DynamicKubernetesObject>> deliveredJobs = new EnumMap<>(JobKind.class);

    public KubernetesCluster(ApiClient commandClient, ApiClient watchClient, JsonMapper json) {
        this.json = json;
        this.core = new CoreV1Api(commandClient);
        for (JobKind kind : JobKind.values()) {
            jobs.put(kind, jobApi(kind, commandClient));
        }
        this.events = new DynamicKubernetesApi("", "v1", "events", commandClient);
        this.provisioningRequests = new DynamicKubernetesApi(PROVISIONING_GROUP, PROVISIONING_VERSION,
                "provisioningrequests", commandClient);
        this.podTemplates = new DynamicKubernetesApi("", "v1", "podtemplates", commandClient);
        this.informers = new SharedInformerFactory(watchClient);
        this.nodeInformer = informers.sharedIndexInformerFor(
                new GenericKubernetesApi<>(V1Node.class, V1NodeList.class, "", "v1", "nodes", watchClient), V1Node.class, 0);
        this.podInformer = informers.sharedIndexInformerFor(
                selected(new GenericKubernetesApi<>(V1Pod.class, V1PodList.class, "", "v1", "pods", watchClient), MANAGED_PODS),
                V1Pod.class, 0);
        this.podInformer.addIndexers(Map.of(WORKLOAD_INDEX, pod -> {
            String uid = labels(pod.getMetadata()).get(AgentProtocol.WORKLOAD_UID_LABEL);
            return uid == null ? List.of() : List.of(uid);
        }));
        for (JobKind kind : JobKind.values()) {
            SharedInformerFactory factory = new SharedInformerFactory(watchClient);
            jobInformerFactories.put(kind, factory);
            jobInformers.put(kind, factory.sharedIndexInformerFor(jobApi(kind, watchClient), DynamicKubernetesObject.class, 0));
            deliveredJobs.put(kind, new DeliveredObjects<>());
        }
    }

    /** DynamicKubernetesApi, not a plain generic one: it registers the gson adapters for untyped objects. */
    private static GenericKubernetesApi<DynamicKubernetesObject, DynamicKubernetesListObject> jobApi(JobKind kind,
                                                                                                   ApiClient client) {
        return new DynamicKubernetesApi(kind.group(), kind.version(), kind.resource(), client);
    }

    /** The factory's own lister-watcher cannot take a label selector; this one passes it to list and watch. */
    private static <T extends KubernetesObject, L extends KubernetesListObject> ListerWatcher<T, L> selected(
            GenericKubernetesApi<T, L> api, String labelSelector) {
        return new ListerWatcher<>() {
            @Override
            public L list(CallGeneratorParams params) throws ApiException {
                return api.list(options(params, labelSelector)).throwsApiException().getObject();
            }

            @Override
            public Watchable<T> watch(CallGeneratorParams params) throws ApiException {
                return api.watch(options(params, labelSelector));
            }
        };
    }

    private static ListOptions options(CallGeneratorParams params, String labelSelector) {
        ListOptions options = new ListOptions();
        options.setLabelSelector(labelSelector);
        options.setResourceVersion(params.resourceVersion);
        options.setTimeoutSeconds(params.timeoutSeconds);
        return options;
    }

    @Override
    public void watch(ClusterEvents events) {
        nodeInformer.addEventHandler(deliveredNodes.noting(handler(node -> events.nodeChanged(toNode(node)),
                node -> events.nodeRemoved(node.getMetadata().getName()))));
        podInformer.addEventHandler(deliveredPods.noting(handler(pod -> events.podChanged(toPod(pod)),
                pod -> events.podRemoved(pod.getMetadata().getNamespace(), pod.getMetadata().getName()))));
        jobInformers.forEach((kind, informer) -> informer.addEventHandler(deliveredJobs.get(kind).noting(handler(
                object -> {
                    ClusterJob job = toJob(kind, object);
                    if (!job.ownedByJobSet()) {
                        events.jobChanged(job);
                    }
                },
                object -> events.jobRemoved(kind, object.getMetadata().getNamespace(), object.getMetadata().getName())))));
        informers.startAllRegisteredInformers();
        jobInformerFactories.values().forEach(SharedInformerFactory::startAllRegisteredInformers);
    }

    private static <T extends KubernetesObject> ResourceEventHandler<T> handler(
            Consumer<T> changed, Consumer<T> removed) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                changed.accept(obj);
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                changed.accept(newObj);
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                removed.accept(obj);
            }
        };
    }

    @Override
    public boolean hasSynced() {
        return deliveredNodes.caughtUpWith(nodeInformer) && deliveredPods.caughtUpWith(podInformer)
                && jobInformers.entrySet().stream().allMatch(e -> deliveredJobs.get(e.getKey()).caughtUpWith(e.getValue()));
    }

    @Override
    public Optional<ClusterJob> job(JobKind kind, String namespace, String name) {
        KubernetesApiResponse<DynamicKubernetesObject> response = call(() -> jobs.get(kind).get(namespace, name));
        if (response.getHttpStatusCode() == 404) {
            return Optional.empty();
        }
        return Optional.of(toJob(kind, succeeded(response).getObject()));
    }

    @Override
    public List<ClusterPod> podsOf(String workloadUid) {
        return podInformer.getIndexer().byIndex(WORKLOAD_INDEX, workloadUid).stream().map(KubernetesCluster::toPod).toList();
    }

    @Override
    public List<ClusterPod> podsOfJob(JobKind kind, String namespace, String name) {
        try {
            return core.listNamespacedPod(namespace).labelSelector(kind.podLabel() + "=" + name).execute().getItems()
                    .stream().map(KubernetesCluster::toPod).toList();
        } catch (ApiException e) {
            throw new ClusterCallException(e.getCode(), "pods of " + kind.kind() + " " + namespace + "/" + name + " answered "
                    + e.getCode() + ": " + e.getResponseBody(), e);
        }
    }

    @Override
    public boolean createJob(JobKind kind, JsonNode object) {
        KubernetesApiResponse<DynamicKubernetesObject> response =
                call(() -> jobs.get(kind).create(Dynamics.newFromJson(json.writeValueAsString(object))));
        if (response.getHttpStatusCode() == 409) {
            return false;
        }
        succeeded(response);
        return true;
    }

    @Override
    public void patchJob(JobKind kind, String namespace, String name, JsonNode mergePatch) {
        succeeded(call(() -> jobs.get(kind).patch(namespace, name, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                new V1Patch(json.writeValueAsString(mergePatch)))));
    }

    @Override
    public void deleteJob(JobKind kind, String namespace, String name) {
        DeleteOptions options = new DeleteOptions();
        options.setPropagationPolicy("Background");
        KubernetesApiResponse<DynamicKubernetesObject> response = call(() -> jobs.get(kind).delete(namespace, name, options));
        if (response.getHttpStatusCode() != 404) {
            succeeded(response);
        }
    }

    @Override
    public void createEvent(JsonNode event) {
        succeeded(call(() -> events.create(Dynamics.newFromJson(json.writeValueAsString(event)))));
    }

    @Override
    public void patchEvent(String namespace, String name, JsonNode mergePatch) {
        succeeded(call(() -> events.patch(namespace, name, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                new V1Patch(json.writeValueAsString(mergePatch)))));
    }

    @Override
    public EvictionOutcome evictPod(String namespace, String name) {
        V1Eviction eviction = new V1Eviction()
                .apiVersion("policy/v1")
                .kind("Eviction")
                .metadata(new V1ObjectMeta().name(name).namespace(namespace));
        try {
            core.createNamespacedPodEviction(name, namespace, eviction).execute();
            return EvictionOutcome.EVICTED;
        } catch (ApiException e) {
            return switch (e.getCode()) {
                case 404 -> EvictionOutcome.GONE;
                case 429 -> EvictionOutcome.BLOCKED_BY_DISRUPTION_BUDGET;
                default -> throw new ClusterCallException(e.getCode(), "eviction of " + namespace + "/" + name
                        + " answered " + e.getCode() + ": " + e.getResponseBody(), e);
            };
        }
    }

    @Override
    public List<ClusterProvisioningRequest> provisioningRequests() {
        ListOptions options = new ListOptions();
        options.setLabelSelector(MANAGED_PODS);
        KubernetesApiResponse<DynamicKubernetesListObject> response = call(() -> provisioningRequests.list(options));
        if (response.getHttpStatusCode() == 404) {
            // the cluster has no ProvisioningRequest API (no autoscaler serving it): it holds none
            return List.of();
        }
        return succeeded(response).getObject().getItems().stream()
                .map(item -> ProvisioningRequestObjects.read(json.readTree(new Gson().toJson(item.getRaw()))))
                .toList();
    }

    @Override
    public void createProvisioningRequest(ProvisioningRequestSpec request) {
        for (ProvisioningRequestSpec.PodSet podSet : request.podSets()) {
            createIfAbsent(podTemplates, ProvisioningRequestObjects.podTemplate(request, podSet));
        }
        ObjectNode object = ProvisioningRequestObjects.provisioningRequest(request, jobSet(request.namespace(),
                request.workloadName()).filter(j -> j.workloadUid() == null || request.workloadUid().equals(j.workloadUid()))
                .map(ClusterJob::uid).orElse(null));
        DynamicKubernetesObject created = createIfAbsent(provisioningRequests, object);
        String uid = created.getMetadata().getUid();
        for (ProvisioningRequestSpec.PodSet podSet : request.podSets()) {
            succeeded(call(() -> podTemplates.patch(request.namespace(), podSet.podTemplateName(),
                    V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                    new V1Patch(json.writeValueAsString(ProvisioningRequestObjects.ownedBy(request.name(), uid))))));
        }
    }

    /** Creates the object, or reads the one of that name a creation cut short left. */
    private DynamicKubernetesObject createIfAbsent(
            GenericKubernetesApi<DynamicKubernetesObject, DynamicKubernetesListObject> api, ObjectNode object) {
        KubernetesApiResponse<DynamicKubernetesObject> response =
                call(() -> api.create(Dynamics.newFromJson(json.writeValueAsString(object))));
        if (response.getHttpStatusCode() == 409) {
            JsonNode metadata = object.path("metadata");
            return succeeded(call(() -> api.get(metadata.path("namespace").asString(), metadata.path("name").asString())))
                    .getObject();
        }
        return succeeded(response).getObject();
    }

    @Override
    public void deleteProvisioningRequest(ClusterProvisioningRequest request) {
        DeleteOptions options = new DeleteOptions();
        options.setPropagationPolicy("Background");
        ignoringAbsent(call(() -> provisioningRequests.delete(request.namespace(), request.name(), options)));
        // the garbage collector would delete them as the request's dependents; a cluster without it must not keep them
        for (String podTemplate : request.podTemplates()) {
            ignoringAbsent(call(() -> podTemplates.delete(request.namespace(), podTemplate)));
        }
    }

    private static void ignoringAbsent(KubernetesApiResponse<DynamicKubernetesObject> response) {
        if (response.getHttpStatusCode() != 404) {
            succeeded(response);
        }
    }

    @Override
    public void close() {
        informers.stopAllRegisteredInformers();
        jobInformerFactories.values().forEach(SharedInformerFactory::stopAllRegisteredInformers);
    }

    /**
     * The generic API throws instead of answering when an error response carries no Status
     * body; both become a response with the status code here.
     */
    public static <T extends KubernetesType> KubernetesApiResponse<T> call(Supplier<KubernetesApiResponse<T>> request) {
        try {
            return request.get();
        } catch (RuntimeException e) {
            if (e.getCause() instanceof ApiException api && api.getCode() > 0) {
                return new KubernetesApiResponse<>(new V1Status().code(api.getCode()).message(api.getMessage()), api.getCode());
            }
            throw new ClusterCallException(0, "no answer from the API server: " + e.getMessage(), e);
        }
    }

    private static <T extends KubernetesType> KubernetesApiResponse<T> succeeded(KubernetesApiResponse<T> response) {
        if (!response.isSuccess()) {
            throw new ClusterCallException(response.getHttpStatusCode(), "API server answered "
                    + response.getHttpStatusCode() + ": "
                    + (response.getStatus() == null ? "" : response.getStatus().getMessage()), null);
        }
        return response;
    }

    static ClusterNode toNode(V1Node node) {
        var spec = node.getSpec();
        var status = node.getStatus();
        List<NodeTaint> taints = spec == null || spec.getTaints() == null ? List.of()
                : spec.getTaints().stream().map(t -> new NodeTaint(t.getKey(), t.getValue(), t.getEffect())).toList();
        String ready = status == null || status.getConditions() == null ? null
                : status.getConditions().stream()
                        .filter(c -> "Ready".equals(c.getType()))
                        .map(V1NodeCondition::getStatus)
                        .findFirst()
                        .orElse(null);
        return new ClusterNode(node.getMetadata().getName(), labels(node.getMetadata()),
                spec != null && Boolean.TRUE.equals(spec.getUnschedulable()), taints, ready,
                chips(status == null ? null : status.getCapacity()),
                chips(status == null ? null : status.getAllocatable()));
    }

    private static int chips(Map<String, Quantity> resources) {
        Quantity chips = resources == null ? null : resources.get(GkeLabels.TPU_CHIPS);
        return chips == null ? 0 : chips.getNumber().intValue();
    }

    static ClusterPod toPod(V1Pod pod) {
        V1ObjectMeta metadata = pod.getMetadata();
        return new ClusterPod(metadata.getNamespace(), metadata.getName(),
                labels(metadata).get(AgentProtocol.WORKLOAD_UID_LABEL),
                pod.getSpec() == null ? null : pod.getSpec().getNodeName(),
                pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Pending" : pod.getStatus().getPhase(),
                pod.getStatus() != null && pod.getStatus().getConditions() != null
                        && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())));
    }

    private ClusterJob toJob(JobKind kind, DynamicKubernetesObject object) {
        return ClusterJob.of(kind, json.readTree(new Gson().toJson(object.getRaw())));
    }

    private static Map<String, String> labels(V1ObjectMeta metadata) {
        return metadata == null || metadata.getLabels() == null ? Map.of() : new HashMap<>(metadata.getLabels());
    }

    /**
     * A call to the API server failed in a way the command cannot work around; {@code status} is the HTTP
     * status of the answer, 0 when there was none (connection refused, timed out).
     */
    public static class ClusterCallException extends RuntimeException {

        private final int status;

        public ClusterCallException(int status, String message, Throwable cause) {
            super(message, cause);
            this.status = status;
        }

        /** The HTTP status the API server answered, 0 when there was none. */
        public int status() {
            return status;
        }

        /**
         * Whether the same call may succeed later: no answer, a server error (5xx), throttling (429), a
         * timeout (408) or a conflict with a concurrent writer (409). Any other 4xx (an invalid object, a
         * missing namespace, a refusal by an admission webhook or a ResourceQuota) would be answered the same.
         */
        public boolean isTransient() {
            return status == 0 || status >= 500 || status == 429 || status == 408 || status == 409;
        }
    }
}
