package dev.platform.scheduler.testsupport;

import dev.platform.api.agent.GkeLabels;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a GKE cluster does with the JobSets the agent writes to fabric8's mock API server, played
 * through the fabric8 client: the JobSet and Job controllers create a running JobSet's pods, the
 * kube-scheduler binds them to Ready nodes of the pools their nodeSelector and pool affinity
 * allow (one whole pool per replica under {@code alpha.jobset.sigs.k8s.io/exclusive-topology},
 * one pod per host), and the kubelet reports them Running. Deleting a JobSet deletes its pods.
 *
 * <p>Suspending a JobSet leaves its pods alone. The real Job controller would delete them too,
 * racing the agent; here they leave only through the agent's evictions, which are what a test
 * wants to see.
 *
 * <p>With {@code exclusiveHosts}, a TPU pod is bound only to a host no other JobSet's pod holds, as the
 * kube-scheduler would with every chip taken: it waits Pending for its host, and is bound there once the pod
 * holding it is gone (evicted).
 */
public final class JobSetController implements AutoCloseable {

    public static final String JOBSET_NAME_LABEL = "jobset.sigs.k8s.io/jobset-name";
    static final String REPLICATED_JOB_LABEL = "jobset.sigs.k8s.io/replicatedjob-name";
    static final String JOB_INDEX_LABEL = "jobset.sigs.k8s.io/job-index";
    static final String EXCLUSIVE_TOPOLOGY_ANNOTATION = "alpha.jobset.sigs.k8s.io/exclusive-topology";
    /** The host a Pending pod waits for (exclusive hosts). */
    static final String WAITING_FOR_HOST_ANNOTATION = "test.platform.dev/waiting-for-host";

    private final KubernetesClient client;
    private final SharedIndexInformer<GenericKubernetesResource> informer;
    private final AtomicLong podNames = new AtomicLong();
    private final boolean exclusiveHosts;
    private final SharedIndexInformer<Pod> pods;

    public JobSetController(KubernetesClient client) {
        this(client, false);
    }

    public JobSetController(KubernetesClient client, boolean exclusiveHosts) {
        this.client = client;
        this.exclusiveHosts = exclusiveHosts;
        this.pods = !exclusiveHosts ? null : client.pods().inAnyNamespace().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
            }

            @Override
            public void onUpdate(Pod old, Pod pod) {
            }

            @Override
            public void onDelete(Pod pod, boolean finalStateUnknown) {
                bindWaitingFor(pod.getSpec().getNodeName());
            }
        });
        this.informer = jobSets(client).inAnyNamespace().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(GenericKubernetesResource jobSet) {
                reconcile(jobSet);
            }

            @Override
            public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource jobSet) {
                reconcile(jobSet);
            }

            @Override
            public void onDelete(GenericKubernetesResource jobSet, boolean finalStateUnknown) {
                podsOf(jobSet.getMetadata().getNamespace(), jobSet.getMetadata().getName())
                        .forEach(pod -> client.pods().resource(pod).delete());
            }
        });
    }

    public static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> jobSets(
            KubernetesClient client) {
        return client.genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet");
    }

    /** The pods of a JobSet, as the API server has them. */
    public List<Pod> podsOf(String namespace, String jobSet) {
        return client.pods().inNamespace(namespace).withLabel(JOBSET_NAME_LABEL, jobSet).list().getItems();
    }

    /** A running JobSet without pods gets them; events are handled one at a time, so it gets them once. */
    private synchronized void reconcile(GenericKubernetesResource jobSet) {
        String namespace = jobSet.getMetadata().getNamespace();
        String name = jobSet.getMetadata().getName();
        if (Boolean.TRUE.equals(jobSet.get("spec", "suspend")) || !podsOf(namespace, name).isEmpty()) {
            return;
        }
        boolean exclusivePools = GkeLabels.NODE_POOL.equals(jobSet.getMetadata().getAnnotations() == null ? null
                : jobSet.getMetadata().getAnnotations().get(EXCLUSIVE_TOPOLOGY_ANNOTATION));
        List<Map<String, Object>> replicatedJobs = jobSet.get("spec", "replicatedJobs");
        int slice = 0;
        Map<String, String> heldBy = exclusiveHosts ? jobSetsByHost() : Map.of();
        for (Map<String, Object> replicatedJob : replicatedJobs) {
            Map<String, Object> jobSpec = child(child(replicatedJob, "template"), "spec");
            PodTemplateSpec template = client.getKubernetesSerialization().convertValue(jobSpec.get("template"),
                    PodTemplateSpec.class);
            int replicas = ((Number) replicatedJob.getOrDefault("replicas", 1)).intValue();
            int parallelism = ((Number) jobSpec.getOrDefault("parallelism", 1)).intValue();
            Map<String, List<String>> readyPools = readyPoolsFor(template.getSpec());
            List<String> pools = new ArrayList<>(readyPools.keySet());
            for (int replica = 0; replica < replicas; replica++, slice++) {
                String pool = pools.isEmpty() || (exclusivePools && slice >= pools.size()) ? null
                        : pools.get(slice % pools.size());
                List<String> nodes = pool == null ? List.of() : readyPools.get(pool);
                for (int index = 0; index < parallelism; index++) {
                    // a TPU pod takes all chips of its host: one pod per Ready host, the rest wait
                    String node = index < nodes.size() ? nodes.get(index) : null;
                    if (exclusiveHosts && suspended(namespace, name)) {
                        return; // suspended while its pods were being created: it gets no more
                    }
                    Pod pod = pod(name, (String) replicatedJob.get("name"), replica, index, template, node);
                    if (exclusiveHosts && node != null && heldBy.containsKey(node) && !name.equals(heldBy.get(node))) {
                        pod = new PodBuilder(pod).editMetadata().addToAnnotations(WAITING_FOR_HOST_ANNOTATION, node)
                                .endMetadata().editSpec().withNodeName(null).endSpec()
                                .editStatus().withPhase("Pending").endStatus().build();
                    }
                    client.pods().inNamespace(namespace).resource(pod).create();
                    if (pod.getSpec().getNodeName() == null && node != null && !heldByAnother(node, name)) {
                        // the holder went while this pod was being created: its deletion found nobody waiting
                        bindWaitingFor(node);
                    }
                }
            }
        }
    }

    private boolean suspended(String namespace, String name) {
        GenericKubernetesResource current = jobSets(client).inNamespace(namespace).withName(name).get();
        return current == null || Boolean.TRUE.equals(current.get("spec", "suspend"));
    }

    /** The JobSet whose pod each host runs. */
    private Map<String, String> jobSetsByHost() {
        Map<String, String> held = new TreeMap<>();
        client.pods().inAnyNamespace().list().getItems().stream()
                .filter(p -> p.getSpec().getNodeName() != null)
                .forEach(p -> held.put(p.getSpec().getNodeName(), p.getMetadata().getLabels().get(JOBSET_NAME_LABEL)));
        return held;
    }

    private boolean heldByAnother(String node, String jobSet) {
        return client.pods().inAnyNamespace().list().getItems().stream()
                .anyMatch(p -> node.equals(p.getSpec().getNodeName())
                        && !jobSet.equals(p.getMetadata().getLabels().get(JOBSET_NAME_LABEL)));
    }

    /** The pod waiting for {@code node}, if any, is bound there now that the pod holding it is gone. */
    private synchronized void bindWaitingFor(String node) {
        if (node == null) {
            return;
        }
        client.pods().inAnyNamespace().list().getItems().stream()
                .filter(p -> p.getMetadata().getAnnotations() != null
                        && node.equals(p.getMetadata().getAnnotations().get(WAITING_FOR_HOST_ANNOTATION))
                        && p.getSpec().getNodeName() == null)
                .findFirst()
                .ifPresent(p -> client.pods().inNamespace(p.getMetadata().getNamespace())
                        .withName(p.getMetadata().getName())
                        .edit(current -> new PodBuilder(current).editMetadata()
                                .removeFromAnnotations(WAITING_FOR_HOST_ANNOTATION).endMetadata()
                                .editSpec().withNodeName(node).endSpec()
                                .editStatus().withPhase("Running").endStatus().build()));
    }

    private Pod pod(String jobSet, String replicatedJob, int replica, int index, PodTemplateSpec template, String node) {
        Map<String, String> labels = new LinkedHashMap<>(template.getMetadata() == null || template.getMetadata().getLabels() == null
                ? Map.of() : template.getMetadata().getLabels());
        labels.put(JOBSET_NAME_LABEL, jobSet);
        labels.put(REPLICATED_JOB_LABEL, replicatedJob);
        labels.put(JOB_INDEX_LABEL, Integer.toString(replica));
        return new PodBuilder()
                .withApiVersion("v1").withKind("Pod")
                .withNewMetadata()
                .withName(jobSet + "-" + replicatedJob + "-" + replica + "-" + index + "-" + Long.toString(podNames.incrementAndGet(), 36))
                .withLabels(labels)
                .endMetadata()
                .withSpec(new PodSpecBuilder(template.getSpec()).withNodeName(node).build())
                .withNewStatus().withPhase(node == null ? "Pending" : "Running").endStatus()
                .build();
    }

    /**
     * Pools whose Ready nodes carry the pod's nodeSelector labels and that its required pool
     * affinity allows, by name, each with its Ready nodes by name.
     */
    private Map<String, List<String>> readyPoolsFor(PodSpec pod) {
        List<String> allowed = pod.getAffinity() == null || pod.getAffinity().getNodeAffinity() == null
                || pod.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null
                ? List.of()
                : pod.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
                        .getNodeSelectorTerms().stream()
                        .map(NodeSelectorTerm::getMatchExpressions)
                        .flatMap(List::stream)
                        .filter(e -> GkeLabels.NODE_POOL.equals(e.getKey()) && "In".equals(e.getOperator()))
                        .map(NodeSelectorRequirement::getValues)
                        .flatMap(List::stream)
                        .toList();
        Map<String, String> selector = Objects.requireNonNullElse(pod.getNodeSelector(), Map.of());
        Map<String, List<String>> pools = new TreeMap<>();
        client.nodes().list().getItems().stream()
                .filter(n -> n.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
                .filter(n -> n.getMetadata().getLabels().entrySet().containsAll(selector.entrySet()))
                .filter(n -> n.getMetadata().getLabels().containsKey(GkeLabels.NODE_POOL))
                .filter(n -> allowed.isEmpty() || allowed.contains(n.getMetadata().getLabels().get(GkeLabels.NODE_POOL)))
                .forEach(n -> pools.computeIfAbsent(n.getMetadata().getLabels().get(GkeLabels.NODE_POOL), p -> new ArrayList<>())
                        .add(n.getMetadata().getName()));
        pools.values().forEach(nodes -> nodes.sort(null));
        return pools;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> child(Map<String, Object> parent, String field) {
        return (Map<String, Object>) parent.getOrDefault(field, Map.of());
    }

    @Override
    public void close() {
        informer.close();
        if (pods != null) {
            pods.close();
        }
    }
}
