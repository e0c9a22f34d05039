package dev.platform.scheduler.core.scenario;

import dev.platform.scheduler.core.AdmissionFairSharing;
import dev.platform.scheduler.core.CoreFixtures;
import dev.platform.scheduler.core.FakeClock;
import dev.platform.scheduler.core.LocalQueueUsage;
import dev.platform.scheduler.core.SchedulerSettings;
import dev.platform.scheduler.core.SchedulerState;
import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.AdmissionMode;
import dev.platform.scheduler.core.model.BorrowWithinCohortPolicy;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.VictimProtection;
import dev.platform.api.manifest.PreemptionAnnotations;
import dev.platform.scheduler.core.model.CohortSpec;
import dev.platform.scheduler.core.model.FlavorFungibility;
import dev.platform.scheduler.core.model.FlavorQuotas;
import dev.platform.scheduler.core.model.FungibilityPolicy;
import dev.platform.scheduler.core.model.FungibilityPreference;
import dev.platform.scheduler.core.model.LabelRequirement;
import dev.platform.scheduler.core.model.LabelSelector;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.Namespace;
import dev.platform.scheduler.core.model.PodSet;
import dev.platform.scheduler.core.model.PodSetAssignment;
import dev.platform.scheduler.core.model.PreemptionOrder;
import dev.platform.scheduler.core.model.PreemptionPolicy;
import dev.platform.scheduler.core.model.QueueingStrategy;
import dev.platform.scheduler.core.model.ReclaimWithinCohortPolicy;
import dev.platform.scheduler.core.model.ResourceFlavor;
import dev.platform.scheduler.core.model.ResourceGroup;
import dev.platform.scheduler.core.model.ResourceQuota;
import dev.platform.scheduler.core.model.StopPolicy;
import dev.platform.scheduler.core.model.Taint;
import dev.platform.scheduler.core.model.Toleration;
import dev.platform.scheduler.core.model.WithinClusterQueuePolicy;
import dev.platform.scheduler.core.model.Workload;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.platform.scheduler.testsupport.YamlTree.list;
import static dev.platform.scheduler.testsupport.YamlTree.map;
import static dev.platform.scheduler.testsupport.YamlTree.str;
import static dev.platform.scheduler.testsupport.YamlTree.strList;
import static dev.platform.scheduler.testsupport.YamlTree.strMap;

/**
 * A scenario file (see src/test/resources/scenarios/README.md) turned into core inputs. Config uses Kueue's
 * manifest field names; quantities are Kubernetes strings.
 */
final class Scenario {

    /** The scenario's present: one hour after {@link CoreFixtures#T0}, when the first cycle runs. */
    static final Instant NOW = CoreFixtures.T0.plus(Duration.ofHours(1));
    private static final java.util.regex.Pattern DURATION =
            java.util.regex.Pattern.compile("([+-])?(?:(\\d+)d)?(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?");

    final String file;
    final Map<String, Object> doc;
    final FakeClock clock = new FakeClock(CoreFixtures.T0);
    final SchedulerState state;
    final Map<String, Workload> workloads = new LinkedHashMap<>();
    final Map<String, String> queueOfLocalQueue = new LinkedHashMap<>();
    final Map<String, ClusterQueueSpec> clusterQueues = new LinkedHashMap<>();
    final Map<String, LocalQueueSpec> localQueues = new LinkedHashMap<>();

    private Scenario(String file, Map<String, Object> doc) {
        this.file = file;
        this.doc = doc;
        this.state = new SchedulerState(clock, new SchedulerSettings(Boolean.TRUE.equals(doc.get("fairSharing")),
                admissionFairSharing(doc)));
    }

    /** The file's {@code admissionFairSharing} block (Kueue's Configuration field names), or null when absent. */
    static AdmissionFairSharing admissionFairSharing(Map<String, Object> doc) {
        if (!doc.containsKey("admissionFairSharing")) {
            return null;
        }
        Map<String, Object> afs = map(doc.get("admissionFairSharing"));
        Map<String, Double> weights = new LinkedHashMap<>();
        map(afs.get("resourceWeights")).forEach((r, w) -> weights.put(r, ((Number) w).doubleValue()));
        return new AdmissionFairSharing(duration(str(afs.get("usageHalfLifeTime"))),
                duration(str(afs.get("usageSamplingInterval"))), weights);
    }

    /** The scenario files of a classpath folder, in name order. */
    static Stream<Path> files(String folder) throws Exception {
        Path dir = Paths.get(Scenario.class.getResource(folder).toURI());
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList().stream();
        }
    }

    static Scenario load(Path path) throws IOException {
        try (InputStream in = Files.newInputStream(path)) {
            Map<String, Object> doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
            Scenario s = new Scenario(path.getFileName().toString(), doc);
            s.populate();
            return s;
        }
    }

    String name() {
        return (String) doc.get("name");
    }

    private void populate() {
        for (Map<String, Object> ns : list(doc.get("namespaces"))) {
            state.applyNamespace(new Namespace(str(ns.get("name")), strMap(ns.get("labels"))));
        }
        for (Map<String, Object> f : list(doc.get("flavors"))) {
            List<Taint> taints = new ArrayList<>();
            for (Map<String, Object> t : list(f.get("nodeTaints"))) {
                taints.add(new Taint(str(t.get("key")), str(t.get("value")), str(t.get("effect"))));
            }
            state.applyResourceFlavor(new ResourceFlavor(str(f.get("name")), strMap(f.get("nodeLabels")), taints));
        }
        for (Map<String, Object> c : list(doc.get("cohorts"))) {
            state.applyCohort(new CohortSpec(str(c.get("name")), str(c.get("parentName")),
                    resourceGroups(c.get("resourceGroups")), weight(c)));
        }
        for (Map<String, Object> cq : list(doc.get("clusterQueues"))) {
            ClusterQueueSpec spec = clusterQueue(cq);
            clusterQueues.put(spec.name(), spec);
            state.applyClusterQueue(spec);
        }
        for (Map<String, Object> lq : list(doc.get("localQueues"))) {
            LocalQueueSpec spec = new LocalQueueSpec(ns(lq), str(lq.get("name")), str(lq.get("clusterQueue")),
                    enumOf(StopPolicy.class, lq.get("stopPolicy")), weight(lq));
            queueOfLocalQueue.put(spec.key(), spec.clusterQueue());
            localQueues.put(spec.key(), spec);
            state.applyLocalQueue(spec);
            // As the REST replay stores them: what the LocalQueue consumed so far, as of the scenario's present.
            Map<String, Double> consumed = new LinkedHashMap<>();
            strMap(lq.get("consumedResources")).forEach((r, q) -> consumed.put(r, (double) CoreFixtures.milli(q)));
            state.fairSharing().restore(new LocalQueueUsage(spec.namespace(), spec.name(), consumed, NOW));
        }
        int i = 0;
        for (Map<String, Object> a : list(doc.get("admitted"))) {
            Workload w = workload(a, CoreFixtures.T0.plusSeconds(i));
            workloads.put(w.name(), w);
            String cq = a.containsKey("clusterQueue") ? str(a.get("clusterQueue")) : queueOfLocalQueue.get(w.localQueueKey());
            Map<String, Map<String, Object>> flavors = (Map<String, Map<String, Object>>) a.getOrDefault("flavors", Map.of());
            List<PodSetAssignment> assignments = new ArrayList<>();
            for (PodSet ps : w.podSets()) {
                Map<String, String> f = strMap(flavors.get(ps.name()));
                Map<String, Long> usage = new LinkedHashMap<>();
                ps.requests().forEach((r, v) -> usage.put(r, v * ps.count()));
                assignments.add(new PodSetAssignment(ps.name(), ps.count(), f, usage));
            }
            Instant admittedAt = a.containsKey("admittedAt") ? NOW.plus(duration(str(a.get("admittedAt"))))
                    : CoreFixtures.T0.plusSeconds(i);
            state.addAdmitted(w, new Admission(cq, assignments), admittedAt,
                    PreemptionAnnotations.lastCheckpoint(strMap(a.get("annotations"))));
            i++;
        }
        for (Map<String, Object> p : list(doc.get("pending"))) {
            Workload w = workload(p, CoreFixtures.T0.plusSeconds(1000 + i));
            workloads.put(w.name(), w);
            if (Boolean.FALSE.equals(p.get("active"))) {
                state.addInactive(w);
            } else {
                state.addPending(w);
            }
            i++;
        }
        clock.advance(Duration.between(CoreFixtures.T0, NOW));
        for (Map<String, Object> a : list(doc.get("admitted"))) {
            if (Boolean.TRUE.equals(a.get("evicted"))) {
                state.evictionStarted(str(a.get("name")));
            }
        }
    }

    /** A step's {@code stopClusterQueue} / {@code resumeClusterQueue}: the queue applied again with that stopPolicy. */
    void setStopPolicy(String clusterQueue, StopPolicy policy) {
        ClusterQueueSpec q = clusterQueues.get(clusterQueue);
        ClusterQueueSpec stopped = new ClusterQueueSpec(q.name(), q.cohort(), q.resourceGroups(), q.queueingStrategy(),
                q.namespaceSelector(), q.flavorFungibility(), q.preemption(), q.fairWeight(), policy,
                q.admissionMode(), q.victimProtection(), q.preemptionOrder(), q.admissionChecks());
        clusterQueues.put(clusterQueue, stopped);
        state.applyClusterQueue(stopped);
    }

    /** A step's {@code stopLocalQueue} / {@code resumeLocalQueue}. */
    void setStopPolicy(String namespace, String localQueue, StopPolicy policy) {
        LocalQueueSpec l = localQueues.get(namespace + "/" + localQueue);
        LocalQueueSpec stopped = new LocalQueueSpec(l.namespace(), l.name(), l.clusterQueue(), policy);
        localQueues.put(stopped.key(), stopped);
        state.applyLocalQueue(stopped);
    }

    private ClusterQueueSpec clusterQueue(Map<String, Object> cq) {
        Map<String, Object> p = map(cq.get("preemption"));
        Map<String, Object> bwc = map(p.get("borrowWithinCohort"));
        Object threshold = bwc.get("maxPriorityThreshold");
        PreemptionPolicy preemption = new PreemptionPolicy(
                enumOf(WithinClusterQueuePolicy.class, p.get("withinClusterQueue")),
                enumOf(ReclaimWithinCohortPolicy.class, p.get("reclaimWithinCohort")),
                enumOf(BorrowWithinCohortPolicy.class, bwc.get("policy")),
                threshold == null ? null : ((Number) threshold).intValue());
        Map<String, Object> ff = map(cq.get("flavorFungibility"));
        FlavorFungibility fungibility = new FlavorFungibility(fungibility(ff.get("whenCanBorrow")),
                fungibility(ff.get("whenCanPreempt")), enumOf(FungibilityPreference.class, ff.get("preference")));
        Object selector = cq.get("namespaceSelector");
        return new ClusterQueueSpec(str(cq.get("name")), str(cq.get("cohort")), resourceGroups(cq.get("resourceGroups")),
                enumOf(QueueingStrategy.class, cq.get("queueingStrategy")),
                selector == null ? null : labelSelector(map(selector)),
                fungibility, preemption, weight(cq), enumOf(StopPolicy.class, cq.get("stopPolicy")),
                enumOf(AdmissionMode.class, map(cq.get("admissionScope")).get("admissionMode")),
                victimProtection(strMap(cq.get("annotations"))), preemptionOrder(strMap(cq.get("annotations"))),
                CheckSteps.strategy(cq));
    }

    /** The ClusterQueue's {@code platform.dev/preemption-order}, as the REST API reads it. */
    private static PreemptionOrder preemptionOrder(Map<String, String> annotations) {
        return PreemptionAnnotations.leastLostWork(annotations) ? PreemptionOrder.LeastLostWork
                : PreemptionOrder.MostRecentlyAdmitted;
    }

    /** The ClusterQueue's {@code annotations}, read as the REST API reads its metadata's. */
    private static VictimProtection victimProtection(Map<String, String> annotations) {
        return new VictimProtection(PreemptionAnnotations.minimumRuntime(annotations),
                PreemptionAnnotations.minimumRuntimeAppliesToHotswap(annotations));
    }

    /** v1beta1 spelled MayStopSearch as Borrow / Preempt. */
    private static FungibilityPolicy fungibility(Object o) {
        if ("Borrow".equals(o) || "Preempt".equals(o)) {
            return FungibilityPolicy.MayStopSearch;
        }
        return enumOf(FungibilityPolicy.class, o);
    }

    private static LabelSelector labelSelector(Map<String, Object> m) {
        return new LabelSelector(strMap(m.get("matchLabels")), requirements(m.get("matchExpressions")));
    }

    private static List<LabelRequirement> requirements(Object o) {
        List<LabelRequirement> out = new ArrayList<>();
        for (Map<String, Object> r : list(o)) {
            out.add(new LabelRequirement(str(r.get("key")), str(r.get("operator")), strList(r.get("values"))));
        }
        return out;
    }

    private static double weight(Map<String, Object> m) {
        Object w = map(m.get("fairSharing")).get("weight");
        return w == null ? 1.0 : CoreFixtures.milli(String.valueOf(w)) / 1000.0;
    }

    private static List<ResourceGroup> resourceGroups(Object o) {
        List<ResourceGroup> groups = new ArrayList<>();
        for (Map<String, Object> g : list(o)) {
            List<FlavorQuotas> flavors = new ArrayList<>();
            for (Map<String, Object> f : list(g.get("flavors"))) {
                List<ResourceQuota> quotas = new ArrayList<>();
                for (Map<String, Object> r : list(f.get("resources"))) {
                    quotas.add(new ResourceQuota(str(r.get("name")), qty(r.get("nominalQuota")),
                            optQty(r.get("borrowingLimit")), optQty(r.get("lendingLimit"))));
                }
                flavors.add(new FlavorQuotas(str(f.get("name")), quotas));
            }
            groups.add(new ResourceGroup(strList(g.get("coveredResources")), flavors));
        }
        return groups;
    }

    private Workload workload(Map<String, Object> w, Instant defaultTime) {
        List<PodSet> podSets = new ArrayList<>();
        for (Map<String, Object> ps : list(w.get("podSets"))) {
            Map<String, Long> requests = new LinkedHashMap<>();
            strMap(ps.get("requests")).forEach((k, v) -> requests.put(k, CoreFixtures.milli(v)));
            List<Toleration> tolerations = new ArrayList<>();
            for (Map<String, Object> t : list(ps.get("tolerations"))) {
                tolerations.add(new Toleration(str(t.get("key")), str(t.get("operator")), str(t.get("value")),
                        str(t.get("effect"))));
            }
            List<List<LabelRequirement>> affinity = new ArrayList<>();
            for (Object term : (List<Object>) map(ps.get("affinity")).getOrDefault("nodeSelectorTerms", List.of())) {
                affinity.add(requirements(map(term).get("matchExpressions")));
            }
            int count = ((Number) ps.getOrDefault("count", 1)).intValue();
            Object min = ps.get("minCount");
            podSets.add(new PodSet(str(ps.get("name")), count, min == null ? count : ((Number) min).intValue(), requests,
                    strMap(ps.get("nodeSelector")), affinity, tolerations));
        }
        Object created = w.get("creationTimestamp");
        Instant queuedAt = created == null ? defaultTime : Instant.parse(String.valueOf(created));
        String name = str(w.get("name"));
        Object maximum = w.get("maximumExecutionTimeSeconds");
        // As the REST API resolves it: the priority class's value plus the workload's kueue.x-k8s.io/priority-boost.
        int priority = ((Number) w.getOrDefault("priority", 0)).intValue()
                + PreemptionAnnotations.priorityBoost(strMap(w.get("annotations")));
        return new Workload(name, ns(w), name, str(w.get("queue")), priority, queuedAt, podSets,
                str(w.get("priorityClassName")), maximum == null ? null : Duration.ofSeconds(((Number) maximum).longValue()));
    }

    private static String ns(Map<String, Object> m) {
        Object ns = m.get("namespace");
        return ns == null ? "default" : String.valueOf(ns);
    }

    static long qty(Object o) {
        return CoreFixtures.milli(String.valueOf(o));
    }

    private static Long optQty(Object o) {
        return o == null ? null : qty(o);
    }

    /** {@code 1h30m}, {@code -10m}, {@code +45s}, {@code 2d}, {@code 0}: a signed duration in days, hours, minutes, seconds. */
    static Duration duration(String text) {
        if (text.trim().equals("0")) {
            return Duration.ZERO;
        }
        java.util.regex.Matcher m = DURATION.matcher(text.trim());
        if (text.isBlank() || !m.matches()) {
            throw new IllegalArgumentException("not a duration: " + text);
        }
        Duration d = Duration.ofDays(part(m.group(2))).plusHours(part(m.group(3))).plusMinutes(part(m.group(4)))
                .plusSeconds(part(m.group(5)));
        return "-".equals(m.group(1)) ? d.negated() : d;
    }

    private static long part(String digits) {
        return digits == null ? 0 : Long.parseLong(digits);
    }

    static <E extends Enum<E>> E enumOf(Class<E> type, Object o) {
        return o == null ? null : Enum.valueOf(type, String.valueOf(o));
    }
}
