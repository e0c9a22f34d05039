package dev.platform.scheduler.workload;

import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.WorkloadManifest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where in the manifest as the user wrote it a pod set's request comes from, for refusals and warnings: a JobSet's
 * pod set {@code i} is {@code spec.replicatedJobs[i]}, a Job's is its {@code spec.template}, a Workload's is
 * {@code spec.podSets[i]}. The path names the one container asking for the resource, or the pod spec when several
 * containers add up to the request (a pod's request is their sum).
 */
final class PodSetPaths {

    private PodSetPaths() {
    }

    /** The path of what asks for {@code resource} in pod set {@code podSet}. */
    static String request(WorkloadManifest workload, int podSet, String resource) {
        String podSpec = podSpec(workload.kind(), podSet);
        List<String> asking = new ArrayList<>();
        List<?> containers = at(workload.manifest(), podSpec + ".containers") instanceof List<?> list ? list : List.of();
        for (int k = 0; k < containers.size(); k++) {
            String container = podSpec + ".containers[" + k + "]";
            for (String field : List.of("requests", "limits")) {
                if (containers.get(k) instanceof Map<?, ?> c && c.get("resources") instanceof Map<?, ?> resources
                        && resources.get(field) instanceof Map<?, ?> quantities && quantities.containsKey(resource)) {
                    asking.add(container + ".resources." + field + "." + resource);
                    break;
                }
            }
        }
        return asking.size() == 1 ? asking.get(0) : podSpec;
    }

    /** The pod set as the user wrote it: a JobSet's replicatedJob, the Job, a Workload's pod set. */
    static String named(WorkloadManifest workload, int podSet) {
        return switch (workload.kind()) {
            case JOB_SET -> "replicatedJob " + workload.podSets().get(podSet).name();
            case WORKLOAD -> "pod set " + workload.podSets().get(podSet).name();
            default -> "the Job";
        };
    }

    private static String podSpec(Kind kind, int podSet) {
        return switch (kind) {
            case JOB_SET -> "spec.replicatedJobs[" + podSet + "].template.spec.template.spec";
            case WORKLOAD -> "spec.podSets[" + podSet + "].template.spec";
            default -> "spec.template.spec";
        };
    }

    /** The value at a dotted path with list indexes ({@code spec.a[0].b}), or null where the tree has none. */
    private static Object at(Map<String, Object> tree, String path) {
        Object node = tree;
        for (String step : path.split("\\.")) {
            int bracket = step.indexOf('[');
            String key = bracket < 0 ? step : step.substring(0, bracket);
            node = node instanceof Map<?, ?> map ? map.get(key) : null;
            if (bracket >= 0) {
                int index = Integer.parseInt(step.substring(bracket + 1, step.length() - 1));
                node = node instanceof List<?> list && index < list.size() ? list.get(index) : null;
            }
        }
        return node;
    }
}
