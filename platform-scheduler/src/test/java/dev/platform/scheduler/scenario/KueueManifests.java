package dev.platform.scheduler.scenario;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static dev.platform.scheduler.testsupport.YamlTree.list;
import static dev.platform.scheduler.testsupport.YamlTree.map;
import static dev.platform.scheduler.scenario.ScenarioFile.namespace;
import static dev.platform.scheduler.testsupport.YamlTree.str;

/**
 * A scenario written as the manifests a Kueue user would apply: a v1 Namespace per labelled
 * namespace, ResourceFlavor, Cohort, ClusterQueue, LocalQueue, one WorkloadPriorityClass per
 * priority value the scenario uses ({@code p-5}, {@code p-minus-1}; a step's setPriority too), and one
 * kueue.x-k8s.io/v1beta1 Workload per workload.
 */
final class KueueManifests {

    private static final String KUEUE = "kueue.x-k8s.io/v1beta1";
    private static final String WORKLOAD_PRIORITY_CLASS_SOURCE = "kueue.x-k8s.io/workloadpriorityclass";

    private KueueManifests() {
    }

    /**
     * The scenario's configuration as one multi-document YAML body. With {@code stopped} false,
     * every stopPolicy is left out, so that the workloads the scenario starts with can be admitted
     * before the queues are stopped.
     */
    static String configuration(ScenarioFile scenario, boolean stopped) {
        List<Map<String, Object>> docs = new ArrayList<>();
        for (Map<String, Object> ns : scenario.section("namespaces")) {
            docs.add(namespaceObject(ns));
        }
        for (Map<String, Object> f : scenario.section("flavors")) {
            Map<String, Object> spec = new LinkedHashMap<>();
            copy(f, spec, "nodeLabels", "nodeTaints");
            docs.add(object("ResourceFlavor", null, str(f.get("name")), spec));
        }
        for (Map<String, Object> c : scenario.section("cohorts")) {
            Map<String, Object> spec = new LinkedHashMap<>();
            copy(c, spec, "parentName", "resourceGroups", "fairSharing");
            docs.add(object("Cohort", null, str(c.get("name")), spec));
        }
        for (Map<String, Object> cq : scenario.section("clusterQueues")) {
            Map<String, Object> spec = new LinkedHashMap<>(cq);
            spec.remove("name");
            if (!stopped) {
                spec.remove("stopPolicy");
            }
            docs.add(object("ClusterQueue", null, str(cq.get("name")), spec));
        }
        for (Map<String, Object> lq : scenario.section("localQueues")) {
            Map<String, Object> spec = new LinkedHashMap<>();
            copy(lq, spec, "clusterQueue", "fairSharing");
            if (stopped) {
                copy(lq, spec, "stopPolicy");
            }
            docs.add(object("LocalQueue", namespace(lq), str(lq.get("name")), spec));
        }
        TreeSet<Integer> priorities = new TreeSet<>();
        for (String section : List.of("admitted", "pending")) {
            scenario.section(section).stream().map(KueueManifests::priority).filter(p -> p != null).forEach(priorities::add);
        }
        for (Map<String, Object> step : scenario.section("steps")) {
            list(step.get("do")).stream().filter(action -> action.containsKey("setPriority"))
                    .forEach(action -> priorities.add(priority(action)));
        }
        for (int value : priorities) {
            Map<String, Object> doc = object("WorkloadPriorityClass", null, priorityClass(value), null);
            doc.remove("spec");
            doc.put("value", value);
            docs.add(doc);
        }
        return yaml(docs);
    }

    /** One scenario workload as a kueue Workload with one container per pod set. */
    static Map<String, Object> workload(Map<String, Object> w) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("queueName", str(w.get("queue")));
        Integer priority = priority(w);
        if (priority != null) {
            spec.put("priorityClassSource", WORKLOAD_PRIORITY_CLASS_SOURCE);
            spec.put("priorityClassName", priorityClass(priority));
        }
        List<Map<String, Object>> podSets = new ArrayList<>();
        for (Map<String, Object> ps : list(w.get("podSets"))) {
            Map<String, Object> container = new LinkedHashMap<>();
            container.put("name", "c");
            container.put("resources", Map.of("requests", map(ps.get("requests"))));
            Map<String, Object> podSpec = new LinkedHashMap<>();
            podSpec.put("containers", List.of(container));
            copy(ps, podSpec, "nodeSelector", "tolerations");
            if (ps.containsKey("affinity")) {
                podSpec.put("affinity", Map.of("nodeAffinity",
                        Map.of("requiredDuringSchedulingIgnoredDuringExecution", ps.get("affinity"))));
            }
            Map<String, Object> podSet = new LinkedHashMap<>();
            podSet.put("name", str(ps.get("name")));
            podSet.put("count", ps.getOrDefault("count", 1));
            copy(ps, podSet, "minCount");
            podSet.put("template", Map.of("spec", podSpec));
            podSets.add(podSet);
        }
        spec.put("podSets", podSets);
        copy(w, spec, "maximumExecutionTimeSeconds");
        if (Boolean.FALSE.equals(w.get("active"))) {
            spec.put("active", false);
        }
        Map<String, Object> doc = object("Workload", namespace(w), str(w.get("name")), spec);
        if (priority != null) {
            map(doc.get("metadata")).put("labels", Map.of("kueue.x-k8s.io/priority-class", priorityClass(priority)));
        }
        return doc;
    }

    /** A namespace of the file as core Kubernetes writes it: cluster-scoped, labels in its metadata. */
    private static Map<String, Object> namespaceObject(Map<String, Object> ns) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", str(ns.get("name")));
        copy(ns, metadata, "labels");
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("apiVersion", "v1");
        doc.put("kind", "Namespace");
        doc.put("metadata", metadata);
        return doc;
    }

    static String yaml(List<Map<String, Object>> docs) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return new Yaml(options).dumpAll(docs.iterator());
    }

    static String yaml(Map<String, Object> doc) {
        return yaml(List.of(doc));
    }

    static String priorityClass(int value) {
        return value < 0 ? "p-minus-" + -value : "p-" + value;
    }

    private static Integer priority(Map<String, Object> w) {
        Object p = w.get("priority");
        return p == null ? null : ((Number) p).intValue();
    }

    private static Map<String, Object> object(String kind, String namespace, String name, Map<String, Object> spec) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        if (namespace != null) {
            metadata.put("namespace", namespace);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("apiVersion", KUEUE);
        doc.put("kind", kind);
        doc.put("metadata", metadata);
        doc.put("spec", spec);
        return doc;
    }

    private static void copy(Map<String, Object> from, Map<String, Object> to, String... keys) {
        for (String key : keys) {
            if (from.get(key) != null) {
                to.put(key, from.get(key));
            }
        }
    }
}
