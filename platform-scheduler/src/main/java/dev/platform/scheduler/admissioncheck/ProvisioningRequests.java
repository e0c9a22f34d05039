package dev.platform.scheduler.admissioncheck;

import dev.platform.api.agent.ProvisioningRequestReport;
import dev.platform.api.agent.ProvisioningRequestSpec;
import dev.platform.api.manifest.AdmissionCheckManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.ProvisioningRequestConfigManifest;
import dev.platform.api.manifest.ResourceFlavorManifest;
import dev.platform.api.manifest.WorkloadManifest.PodSetSpec;
import dev.platform.scheduler.cluster.ClusterQueries;
import dev.platform.scheduler.config.AdmissionCheckConfigs;
import dev.platform.scheduler.config.ConfigStore;
import dev.platform.scheduler.core.admissioncheck.AdmissionCheckState;
import dev.platform.scheduler.core.admissioncheck.ProvisioningRequestStatus;
import dev.platform.scheduler.core.admissioncheck.ProvisioningRules;
import dev.platform.scheduler.workload.StoredAdmission;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadService;
import dev.platform.scheduler.workload.WorkloadStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The platform's part of Kueue's ProvisioningRequest admission check controller: which
 * {@code autoscaling.x-k8s.io/v1} ProvisioningRequests each cluster should hold (the agent creates and deletes them),
 * and how the conditions the agent reports move the checks (the core's {@link ProvisioningRules}).
 *
 * <p>A workload holding quota on a ClusterQueue with a {@code kueue.x-k8s.io/provisioning-request} check needs one
 * request per such check, for its current attempt ({@code retryCount + 1}), as long as it holds the quota: while it
 * waits, and while it runs, so that a revoked capacity is seen. Its quota released (finished, evicted, deactivated),
 * the request is no longer listed and the agent deletes it. The request goes to the cluster the workload was adopted
 * from or placed in, else to the first connected cluster by name.
 */
@Service
public class ProvisioningRequests {

    /** Kueue passes a workload's annotations with this prefix to its ProvisioningRequests as parameters. */
    static final String PARAMETER_ANNOTATION_PREFIX = "provreq.kueue.x-k8s.io/";

    private static final Logger log = LoggerFactory.getLogger(ProvisioningRequests.class);

    private final AdmissionCheckConfigs configs;
    private final ConfigStore config;
    private final WorkloadChecks checks;
    private final ProvisionedPools provisionedPools;
    private final WorkloadStore workloads;
    private final ClusterQueries clusters;
    private final ApplicationEventPublisher events;
    private final TransactionTemplate transaction;
    private final JsonMapper json;
    private final Clock clock;

    ProvisioningRequests(AdmissionCheckConfigs configs, ConfigStore config, WorkloadChecks checks,
                         ProvisionedPools provisionedPools, WorkloadStore workloads, ClusterQueries clusters,
                         ApplicationEventPublisher events, TransactionTemplate transaction, JsonMapper json,
                         Clock clock) {
        this.configs = configs;
        this.config = config;
        this.checks = checks;
        this.provisionedPools = provisionedPools;
        this.workloads = workloads;
        this.clusters = clusters;
        this.events = events;
        this.transaction = transaction;
        this.json = json;
        this.clock = clock;
    }

    /** The requests {@code cluster} should hold now, in workload and check order. */
    public List<ProvisioningRequestSpec> desired(String cluster) {
        Map<String, ProvisioningRequestConfigManifest> provisioning = provisioningChecks();
        if (provisioning.isEmpty()) {
            return List.of();
        }
        String defaultCluster = clusters.lastReports().keySet().stream().sorted().findFirst().orElse(null);
        List<WorkloadChecks.HeldCheck> held = checks.held(provisioning.keySet()).stream()
                .filter(h -> cluster.equals(h.cluster() != null ? h.cluster() : defaultCluster))
                .toList();
        if (held.isEmpty()) {
            return List.of();
        }
        Set<UUID> uids = held.stream().map(WorkloadChecks.HeldCheck::uid).collect(Collectors.toSet());
        Map<UUID, WorkloadRow> rows = workloads.findAll(uids);
        Map<UUID, String> manifests = workloads.manifests(uids);
        Map<String, ResourceFlavorManifest> flavors = config.list(Kind.RESOURCE_FLAVOR, ResourceFlavorManifest.class)
                .stream().collect(Collectors.toMap(ResourceFlavorManifest::name, Function.identity()));
        List<ProvisioningRequestSpec> desired = new ArrayList<>();
        for (WorkloadChecks.HeldCheck h : held) {
            WorkloadRow row = rows.get(h.uid());
            if (row == null || row.admission() == null) {
                continue;
            }
            JsonNode manifest = manifests.get(h.uid()) == null ? JsonNodeFactory.instance.objectNode()
                    : json.readTree(manifests.get(h.uid()));
            ProvisioningRequestConfigManifest prc = provisioning.get(h.check().name());
            List<ProvisioningRequestSpec.PodSet> podSets = podSets(row, manifest, prc, flavors,
                    ProvisioningRules.requestName(row.name(), h.check().name(), attempt(h.check())));
            if (!podSets.isEmpty()) {
                desired.add(spec(row, manifest, h.check(), prc, podSets));
            }
        }
        return desired;
    }

    /**
     * The conditions the agent of {@code cluster} reports of its requests: each request of a workload's current
     * attempt moves its check as {@link ProvisioningRules} says; reports of older attempts, of workloads no longer
     * holding quota and of checks that are not provisioning checks are ignored. The node pools the cluster says it
     * provisioned for each request are kept for its workload alone ({@link ProvisionedPools}).
     */
    public void record(String cluster, List<ProvisioningRequestReport> reports) {
        Map<String, ProvisioningRequestConfigManifest> provisioning = provisioningChecks();
        Instant now = clock.instant();
        transaction.executeWithoutResult(s -> provisionedPools.replace(cluster, reports));
        boolean changed = false;
        for (ProvisioningRequestReport report : reports) {
            ProvisioningRequestConfigManifest prc = provisioning.get(report.admissionCheck());
            UUID uid = parseUid(report.workloadUid());
            if (prc == null || uid == null) {
                continue;
            }
            changed |= Boolean.TRUE.equals(transaction.execute(s -> apply(uid, report, prc, now)));
        }
        if (changed) {
            events.publishEvent(new WorkloadService.WorkloadsChanged());
        }
    }

    private boolean apply(UUID uid, ProvisioningRequestReport report, ProvisioningRequestConfigManifest prc,
                          Instant now) {
        Optional<AdmissionCheckState> locked = checks.lock(uid, report.admissionCheck());
        Instant[] reservation = checks.reservations(List.of(uid)).get(uid);
        if (locked.isEmpty() || reservation == null || report.attempt() != attempt(locked.get())) {
            return false;
        }
        AdmissionCheckState current = locked.get();
        AdmissionCheckState next = ProvisioningRules.next(current, status(report),
                AdmissionCheckConfigs.retryStrategy(prc), reservation[1] != null, now);
        if (next.equals(current)) {
            return false;
        }
        checks.write(uid, next);
        log.info("workload {}: admission check {} {} -> {} after ProvisioningRequest {}/{}: {}", uid,
                current.name(), current.state(), next.state(), report.namespace(), report.name(), next.message());
        return true;
    }

    /** The request of a check is for its attempt {@code retryCount + 1}, as Kueue counts them from 1. */
    static int attempt(AdmissionCheckState check) {
        return check.retryCount() + 1;
    }

    private static ProvisioningRequestStatus status(ProvisioningRequestReport report) {
        Map<ProvisioningRequestStatus.Condition, ProvisioningRequestStatus.Reported> conditions =
                new EnumMap<>(ProvisioningRequestStatus.Condition.class);
        for (ProvisioningRequestReport.Condition c : report.conditions()) {
            for (ProvisioningRequestStatus.Condition known : ProvisioningRequestStatus.Condition.values()) {
                if (known.name().equals(c.type())) {
                    conditions.put(known, new ProvisioningRequestStatus.Reported(c.isTrue(), c.message()));
                }
            }
        }
        return new ProvisioningRequestStatus(report.attempt(), conditions);
    }

    /** The provisioning checks whose ProvisioningRequestConfig exists (Kueue: the others are inactive), by name. */
    private Map<String, ProvisioningRequestConfigManifest> provisioningChecks() {
        Map<String, ProvisioningRequestConfigManifest> out = new TreeMap<>();
        configured().forEach((name, prc) -> prc.ifPresent(p -> out.put(name, p)));
        return out;
    }

    /**
     * Every {@code kueue.x-k8s.io/provisioning-request} check by name, with its ProvisioningRequestConfig; empty when
     * that does not exist (Kueue: the check is not active).
     */
    public Map<String, Optional<ProvisioningRequestConfigManifest>> configured() {
        Map<String, Optional<ProvisioningRequestConfigManifest>> out = new TreeMap<>();
        for (AdmissionCheckManifest check : configs.admissionChecks()) {
            if (check.provisioning()) {
                out.put(check.name(), configs.provisioningFor(check.name()));
            }
        }
        return out;
    }

    /**
     * A reserved workload's checks after Kueue's provisioning controller looked at them before making any request
     * ({@link ProvisioningRules#withoutRequest}): a provisioning check without its config says it is not active, one
     * whose config manages no resource of the workload's {@code podSets} is Ready. Other checks are as given.
     */
    public static List<AdmissionCheckState> withoutRequests(
            Map<String, Optional<ProvisioningRequestConfigManifest>> configured, List<PodSetSpec> podSets,
            List<AdmissionCheckState> checks, Instant now) {
        return checks.stream().map(check -> {
            Optional<ProvisioningRequestConfigManifest> prc = configured.get(check.name());
            if (prc == null) {
                return check;
            }
            boolean needed = prc.map(p -> podSets.stream().anyMatch(ps -> p.needsRequest(ps.requests().keySet())))
                    .orElse(true);
            return ProvisioningRules.withoutRequest(check, prc.isPresent(), needed, now);
        }).toList();
    }

    private ProvisioningRequestSpec spec(WorkloadRow row, JsonNode manifest, AdmissionCheckState check,
                                         ProvisioningRequestConfigManifest prc,
                                         List<ProvisioningRequestSpec.PodSet> podSets) {
        Map<String, String> parameters = new TreeMap<>(prc.parameters());
        manifest.path("metadata").path("annotations").properties().forEach(e -> {
            if (e.getKey().startsWith(PARAMETER_ANNOTATION_PREFIX)) {
                parameters.put(e.getKey().substring(PARAMETER_ANNOTATION_PREFIX.length()), e.getValue().asString());
            }
        });
        int attempt = attempt(check);
        return new ProvisioningRequestSpec(row.namespace(), ProvisioningRules.requestName(row.name(), check.name(),
                attempt), row.uid().toString(), row.name(), check.name(), attempt, prc.provisioningClassName(),
                parameters, podSets);
    }

    /**
     * Kueue's mergePodSets: the pod sets using a managed resource (every pod set when the config names none), each
     * with its admitted count and its pod template carrying its flavor's node labels and tolerations; with a
     * {@code podSetMergePolicy}, a pod set like one already listed adds its count to that one instead.
     */
    private List<ProvisioningRequestSpec.PodSet> podSets(WorkloadRow row, JsonNode manifest,
                                                         ProvisioningRequestConfigManifest prc,
                                                         Map<String, ResourceFlavorManifest> flavors,
                                                         String requestName) {
        Map<String, StoredAdmission.PodSetAssignment> assignments = row.admission().podSetAssignments().stream()
                .collect(Collectors.toMap(StoredAdmission.PodSetAssignment::name, Function.identity(), (a, b) -> a));
        Map<String, ProvisioningRequestSpec.PodSet> merged = new LinkedHashMap<>();
        for (PodSetSpec podSet : row.podSets()) {
            if (!prc.needsRequest(podSet.requests().keySet())) {
                continue;
            }
            StoredAdmission.PodSetAssignment assignment = assignments.get(podSet.name());
            int count = assignment == null ? podSet.count() : assignment.count();
            ObjectNode template = template(manifest, podSet);
            if (assignment != null) {
                assignment.flavors().values().stream().distinct().map(flavors::get)
                        .filter(f -> f != null).forEach(f -> withFlavor(template, f));
            }
            ProvisioningRequestSpec.PodSet like = prc.podSetMergePolicy() == null ? null
                    : merged.values().stream().filter(m -> mergeable(m.template(), template, prc.podSetMergePolicy()))
                    .findFirst().orElse(null);
            if (like != null) {
                merged.put(like.name(), new ProvisioningRequestSpec.PodSet(like.name(), like.podTemplateName(),
                        like.count() + count, like.template()));
            } else {
                merged.put(podSet.name(), new ProvisioningRequestSpec.PodSet(podSet.name(),
                        ProvisioningRules.podTemplateName(requestName, podSet.name()), count, template));
            }
        }
        return List.copyOf(merged.values());
    }

    /**
     * The pod template of a pod set in the stored manifest: a JobSet's replicated job of that name, a Job's
     * template; a template with one container asking the pod set's requests when the manifest has neither.
     */
    static ObjectNode template(JsonNode manifest, PodSetSpec podSet) {
        for (JsonNode job : manifest.path("spec").path("replicatedJobs")) {
            if (podSet.name().equals(job.path("name").asString(null))
                    && job.path("template").path("spec").path("template") instanceof ObjectNode t) {
                return t.deepCopy();
            }
        }
        if (manifest.path("spec").path("template") instanceof ObjectNode t && t.has("spec")) {
            return t.deepCopy();
        }
        ObjectNode template = JsonNodeFactory.instance.objectNode();
        ObjectNode container = template.putObject("spec").putArray("containers").addObject();
        container.put("name", "main");
        ObjectNode requests = container.putObject("resources").putObject("requests");
        podSet.requests().forEach((resource, quantity) -> requests.put(resource, quantity.toString()));
        return template;
    }

    /** Kueue's podset.Merge of the admission: the flavor's node labels and tolerations join the template's. */
    private static void withFlavor(ObjectNode template, ResourceFlavorManifest flavor) {
        ObjectNode spec = template.get("spec") instanceof ObjectNode s ? s : template.putObject("spec");
        if (flavor.nodeLabels() != null && !flavor.nodeLabels().isEmpty()) {
            ObjectNode selector = spec.get("nodeSelector") instanceof ObjectNode n ? n : spec.putObject("nodeSelector");
            flavor.nodeLabels().forEach(selector::put);
        }
        if (flavor.tolerations() != null && !flavor.tolerations().isEmpty()) {
            ArrayNode tolerations = spec.get("tolerations") instanceof ArrayNode a ? a : spec.putArray("tolerations");
            for (ResourceFlavorManifest.Toleration t : flavor.tolerations()) {
                ObjectNode toleration = tolerations.addObject();
                putIfPresent(toleration, "key", t.key());
                putIfPresent(toleration, "operator", t.operator());
                putIfPresent(toleration, "value", t.value());
                putIfPresent(toleration, "effect", t.effect());
            }
        }
    }

    private static void putIfPresent(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }

    /**
     * Kueue's canMergePodSets: IdenticalPodTemplates asks equal templates; IdenticalWorkloadSchedulingRequirements
     * equal containers' resources, nodeSelector, tolerations and affinity.
     */
    static boolean mergeable(JsonNode a, JsonNode b, ProvisioningRequestConfigManifest.PodSetMergePolicy policy) {
        return switch (policy) {
            case IdenticalPodTemplates -> a.equals(b);
            case IdenticalWorkloadSchedulingRequirements -> schedulingRequirements(a).equals(schedulingRequirements(b));
        };
    }

    private static JsonNode schedulingRequirements(JsonNode template) {
        JsonNode spec = template.path("spec");
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        ArrayNode resources = out.putArray("containers");
        for (String list : new String[] {"initContainers", "containers"}) {
            spec.path(list).forEach(c -> resources.add(c.path("resources")));
        }
        for (String field : new String[] {"resources", "nodeSelector", "tolerations", "affinity", "resourceClaims"}) {
            out.set(field, spec.path(field));
        }
        return out;
    }

    static UUID parseUid(String uid) {
        try {
            return uid == null ? null : UUID.fromString(uid);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
