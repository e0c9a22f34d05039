package dev.platform.scheduler.testsupport;

import java.util.Map;
import java.util.stream.Collectors;

/** Small manifests for tests, written as a Kueue user would. */
public final class Manifests {

    private Manifests() {
    }

    /** A flavor, a standalone ClusterQueue with {@code cpu} quota and preemption policy, a LocalQueue {@code lq}. */
    public static String queue(String clusterQueue, String nominalCpu, String withinClusterQueue) {
        return """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: default}
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: %s}
                spec:
                  preemption: {withinClusterQueue: %s}
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors: [{name: default, resources: [{name: cpu, nominalQuota: "%s"}]}]
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: lq, namespace: team-a}
                spec: {clusterQueue: %s}
                """.formatted(clusterQueue, withinClusterQueue, nominalCpu, clusterQueue);
    }

    /**
     * A Kueue Workload of one pod asking for one cpu, in LocalQueue {@code queue}, with one more field of its spec
     * ({@code specField}, e.g. {@code "active: false"}).
     */
    public static String workload(String name, String queue, String specField) {
        return """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: Workload
                metadata: {name: %s}
                spec:
                  queueName: %s
                  %s
                  podSets:
                  - name: main
                    count: 1
                    template:
                      spec:
                        containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}}}]
                """.formatted(name, queue, specField);
    }

    /** A batch Job of one pod asking for {@code cpu}, in LocalQueue {@code queue}, with an explicit priority class. */
    public static String job(String name, String queue, String cpu, String priorityClass) {
        String labels = queue == null ? "{}" : "{kueue.x-k8s.io/queue-name: " + queue + "}";
        String priority = priorityClass == null ? "" : "\n      priorityClassName: " + priorityClass;
        return """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: %s
                  labels: %s
                spec:
                  template:
                    spec:%s
                      containers:
                      - name: main
                        image: busybox
                        resources: {requests: {cpu: "%s"}}
                """.formatted(name, labels, priority, cpu);
    }

    /**
     * A JobSet of one single-pod job asking for {@code cpu}, with the given labels (the LocalQueue, a
     * WorkloadPriorityClass) and annotations (a simulated runtime), as the benchmarks submit it.
     */
    public static String onePodJobSet(String name, Map<String, String> labels, Map<String, String> annotations,
                                      String cpu) {
        return """
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata:
                  name: %s
                  labels: %s
                  annotations: %s
                spec:
                  replicatedJobs:
                  - name: main
                    replicas: 1
                    template:
                      spec:
                        parallelism: 1
                        completions: 1
                        template:
                          spec:
                            restartPolicy: Never
                            containers:
                            - name: main
                              image: busybox
                              resources: {requests: {cpu: "%s"}}
                """.formatted(name, flowMap(labels), flowMap(annotations), cpu);
    }

    private static String flowMap(Map<String, String> entries) {
        return entries.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
                .collect(Collectors.joining(", ", "{", "}"));
    }

    /**
     * Namespace {@code namespace} with the label by which an Admin lets its workloads without a queue name run in
     * priority-only mode.
     */
    public static String priorityOnlyNamespace(String namespace) {
        return """
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: %s
                  labels: {platform.dev/priority-only: allowed}
                """.formatted(namespace);
    }

    public static String priorityClass(String name, int value) {
        return """
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: %s}
                value: %d
                """.formatted(name, value);
    }
}
