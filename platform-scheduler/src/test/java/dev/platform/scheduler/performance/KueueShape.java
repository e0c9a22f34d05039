package dev.platform.scheduler.performance;

import dev.platform.scheduler.testsupport.Manifests;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A scheduler-performance shape as Kueue's generator reads it (test/performance/scheduler/configs/
 * {baseline,large-scale}/generator.yaml): {@code cohorts} cohorts of {@code queuesPerCohort} ClusterQueues, each
 * with {@code nominalQuota} units of one resource on one flavor, borrowing up to {@code borrowingLimit},
 * reclaimWithinCohort Any and withinClusterQueue LowerPriority, and per ClusterQueue the workload classes below.
 * Names follow the generator: ClusterQueue {@code cq-0-<i>-cohort-<c>}, a namespace and a LocalQueue of the same
 * name, workloads {@code <class>-<set>-<n>-0}.
 */
public record KueueShape(String name, int cohorts, int queuesPerCohort, int nominalQuota, int borrowingLimit,
                  List<WorkloadClass> classes) {

    /**
     * One workload set of a ClusterQueue: {@code count} workloads of {@code request} units, each created
     * {@code creationInterval} after the previous one (the first after one interval), running {@code runtime}.
     */
    public record WorkloadClass(String name, int count, Duration creationInterval, Duration runtime, int priority,
                         int request) {
    }

    /** One submission of the shape: when (from the start of generation), where and what. */
    public record Arrival(Duration at, String namespace, String name, WorkloadClass workloadClass) {
    }

    public KueueShape {
        classes = List.copyOf(classes);
    }

    /** configs/baseline: 5 x 6 ClusterQueues, 500 workloads each. */
    public static KueueShape baseline() {
        return new KueueShape("baseline", 5, 6, 20, 100, List.of(
                new WorkloadClass("small", 350, Duration.ofMillis(100), Duration.ofMillis(200), 50, 1),
                new WorkloadClass("medium", 100, Duration.ofMillis(500), Duration.ofMillis(500), 100, 5),
                new WorkloadClass("large", 50, Duration.ofMillis(1200), Duration.ofMillis(1000), 200, 20)));
    }

    /** configs/large-scale as calibrated in 2026 (10 x 100 ClusterQueues, 50 workloads each). */
    static KueueShape largeScale() {
        return new KueueShape("large-scale", 10, 100, 20, 100, List.of(
                new WorkloadClass("small", 35, Duration.ofMillis(60), Duration.ofMillis(150), 50, 1),
                new WorkloadClass("medium", 11, Duration.ofMillis(300), Duration.ofMillis(350), 100, 5),
                new WorkloadClass("large", 4, Duration.ofMillis(700), Duration.ofMillis(700), 200, 20)));
    }

    /** The same shape with fewer cohorts, queues and workloads per class (at least one of each). */
    KueueShape scaledDown(int cohorts, int queuesPerCohort, int divisor) {
        return new KueueShape(name + "-smoke", cohorts, queuesPerCohort, nominalQuota, borrowingLimit,
                classes.stream().map(c -> new WorkloadClass(c.name(), Math.max(1, c.count() / divisor),
                        c.creationInterval(), c.runtime(), c.priority(), c.request())).toList());
    }

    public List<String> clusterQueues() {
        List<String> names = new ArrayList<>();
        for (int c = 0; c < cohorts; c++) {
            for (int q = 0; q < queuesPerCohort; q++) {
                names.add("cq-0-" + q + "-cohort-" + c);
            }
        }
        return names;
    }

    static String cohortOf(String clusterQueue) {
        return clusterQueue.substring(clusterQueue.indexOf("-cohort-") + 1);
    }

    int workloadCount() {
        return clusterQueues().size() * classes.stream().mapToInt(WorkloadClass::count).sum();
    }

    /**
     * The capacity lower bound of the makespan: every unit-second of runtime spread perfectly over every unit of
     * nominal quota (a cohort lends all of it), ignoring arrivals.
     */
    double lowerBoundSeconds() {
        double unitSecondsPerQueue = classes.stream()
                .mapToDouble(c -> c.count() * c.request() * c.runtime().toMillis() / 1000.0).sum();
        return unitSecondsPerQueue / nominalQuota;
    }

    /** When the last workload arrives: the longest workload set's count times its interval. */
    Duration generationTime() {
        return classes.stream().map(c -> c.creationInterval().multipliedBy(c.count()))
                .max(Comparator.naturalOrder()).orElse(Duration.ZERO);
    }

    /**
     * Every submission in time order. Kueue's generator runs one goroutine per ClusterQueue and workload set,
     * each waiting its interval before every create; this is that schedule on a common clock.
     */
    List<Arrival> arrivals() {
        List<Arrival> arrivals = new ArrayList<>();
        for (String queue : clusterQueues()) {
            for (int set = 0; set < classes.size(); set++) {
                WorkloadClass c = classes.get(set);
                for (int n = 0; n < c.count(); n++) {
                    arrivals.add(new Arrival(c.creationInterval().multipliedBy(n + 1L), queue,
                            c.name() + "-" + set + "-" + n + "-0", c));
                }
            }
        }
        arrivals.sort(Comparator.comparing(Arrival::at));
        return arrivals;
    }

    /**
     * The configuration as manifests, in documents of at most {@code perDocument} ClusterQueues (the API takes
     * at most 1 MiB per request): the flavor and the priority classes first.
     */
    public List<String> manifests(int perDocument) {
        List<String> documents = new ArrayList<>();
        StringBuilder head = new StringBuilder("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: rf}
                """);
        for (WorkloadClass c : classes) {
            head.append("""
                    ---
                    apiVersion: kueue.x-k8s.io/v1beta1
                    kind: WorkloadPriorityClass
                    metadata: {name: %s}
                    value: %d
                    """.formatted(c.name(), c.priority()));
        }
        documents.add(head.toString());
        List<String> queues = clusterQueues();
        for (int from = 0; from < queues.size(); from += perDocument) {
            StringBuilder document = new StringBuilder();
            for (String queue : queues.subList(from, Math.min(queues.size(), from + perDocument))) {
                document.append(clusterQueue(queue, "None"));
                document.append("""
                        ---
                        apiVersion: kueue.x-k8s.io/v1beta1
                        kind: LocalQueue
                        metadata: {name: %s, namespace: %s}
                        spec: {clusterQueue: %s}
                        """.formatted(queue, queue, queue));
            }
            documents.add(document.toString());
        }
        return documents;
    }

    /** One ClusterQueue of the shape, with the given stop policy. */
    String clusterQueue(String queue, String stopPolicy) {
        return """
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: %s}
                spec:
                  cohort: %s
                  stopPolicy: %s
                  preemption: {reclaimWithinCohort: Any, withinClusterQueue: LowerPriority}
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors: [{name: rf, resources: [{name: cpu, nominalQuota: "%d", borrowingLimit: "%d"}]}]
                """.formatted(queue, cohortOf(queue), stopPolicy, nominalQuota, borrowingLimit);
    }

    /**
     * The workload as a user submits it: a one-pod JobSet in the ClusterQueue's LocalQueue, with the class's
     * WorkloadPriorityClass and its runtime for the simulated cluster.
     */
    public static String jobSet(Arrival arrival) {
        WorkloadClass c = arrival.workloadClass();
        return Manifests.onePodJobSet(arrival.name(),
                Map.of("kueue.x-k8s.io/queue-name", arrival.namespace(), "kueue.x-k8s.io/priority-class", c.name()),
                Map.of("platform.dev/simulated-runtime", c.runtime().toMillis() + "ms"), Integer.toString(c.request()));
    }
}
