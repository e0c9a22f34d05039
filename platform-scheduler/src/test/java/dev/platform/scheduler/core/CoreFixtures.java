package dev.platform.scheduler.core;

import dev.platform.api.manifest.Quantity;
import dev.platform.scheduler.core.model.AdmissionMode;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.FlavorFungibility;
import dev.platform.scheduler.core.model.FlavorQuotas;
import dev.platform.scheduler.core.model.LabelSelector;
import dev.platform.scheduler.core.model.PodSet;
import dev.platform.scheduler.core.model.PreemptionOrder;
import dev.platform.scheduler.core.model.PreemptionPolicy;
import dev.platform.scheduler.core.model.QueueingStrategy;
import dev.platform.scheduler.core.model.ResourceFlavor;
import dev.platform.scheduler.core.model.ResourceGroup;
import dev.platform.scheduler.core.model.ResourceQuota;
import dev.platform.scheduler.core.model.StopPolicy;
import dev.platform.scheduler.core.model.VictimProtection;
import dev.platform.scheduler.core.model.Workload;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Fluent builders for core inputs, in the style of Kueue's test wrappers (utiltesting.MakeWorkload ...). */
public final class CoreFixtures {

    public static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private CoreFixtures() {
    }

    public static long milli(String quantity) {
        return Quantity.parse(quantity).milliValue();
    }

    public static WorkloadBuilder workload(String name) {
        return new WorkloadBuilder(name);
    }

    public static ClusterQueueBuilder clusterQueue(String name) {
        return new ClusterQueueBuilder(name);
    }

    public static ResourceFlavor flavor(String name) {
        return new ResourceFlavor(name, Map.of(), List.of());
    }

    public static final class WorkloadBuilder {
        private final String name;
        private String namespace = "default";
        private String queue = "lq";
        private int priority;
        private Instant queuedAt = T0;
        private final List<PodSet> podSets = new ArrayList<>();
        private final Map<String, Long> requests = new LinkedHashMap<>();
        private int count = 1;
        private int minCount;

        private WorkloadBuilder(String name) {
            this.name = name;
        }

        public WorkloadBuilder namespace(String ns) {
            this.namespace = ns;
            return this;
        }

        public WorkloadBuilder queue(String q) {
            this.queue = q;
            return this;
        }

        public WorkloadBuilder priority(int p) {
            this.priority = p;
            return this;
        }

        public WorkloadBuilder queuedAt(Instant t) {
            this.queuedAt = t;
            return this;
        }

        /** Per-pod request of the single "main" pod set. */
        public WorkloadBuilder request(String resource, String quantity) {
            requests.put(resource, milli(quantity));
            return this;
        }

        public WorkloadBuilder count(int count) {
            this.count = count;
            return this;
        }

        public WorkloadBuilder minCount(int minCount) {
            this.minCount = minCount;
            return this;
        }

        public WorkloadBuilder podSet(PodSet ps) {
            podSets.add(ps);
            return this;
        }

        public Workload build() {
            List<PodSet> sets = new ArrayList<>(podSets);
            if (!requests.isEmpty()) {
                sets.add(0, new PodSet("main", count, minCount, requests, Map.of(), List.of(), List.of()));
            }
            return new Workload(name, namespace, name, queue, priority, queuedAt, sets);
        }
    }

    public static final class ClusterQueueBuilder {
        private final String name;
        private String cohort;
        private QueueingStrategy strategy = QueueingStrategy.BestEffortFIFO;
        private PreemptionPolicy preemption = PreemptionPolicy.NEVER;
        private FlavorFungibility fungibility = FlavorFungibility.DEFAULT;
        private final List<String> covered = new ArrayList<>();
        private final Map<String, List<ResourceQuota>> flavors = new LinkedHashMap<>();
        private double weight = 1.0;
        private StopPolicy stop = StopPolicy.None;
        private LabelSelector namespaceSelector = LabelSelector.EVERYTHING;
        private AdmissionMode admissionMode;
        private PreemptionOrder preemptionOrder;
        private VictimProtection protection;

        private ClusterQueueBuilder(String name) {
            this.name = name;
        }

        public ClusterQueueBuilder cohort(String c) {
            this.cohort = c;
            return this;
        }

        public ClusterQueueBuilder strategy(QueueingStrategy s) {
            this.strategy = s;
            return this;
        }

        public ClusterQueueBuilder preemption(PreemptionPolicy p) {
            this.preemption = p;
            return this;
        }

        public ClusterQueueBuilder fungibility(FlavorFungibility f) {
            this.fungibility = f;
            return this;
        }

        public ClusterQueueBuilder weight(double w) {
            this.weight = w;
            return this;
        }

        public ClusterQueueBuilder namespaceSelector(LabelSelector s) {
            this.namespaceSelector = s;
            return this;
        }

        public ClusterQueueBuilder admissionMode(AdmissionMode mode) {
            this.admissionMode = mode;
            return this;
        }

        public ClusterQueueBuilder stopPolicy(StopPolicy s) {
            this.stop = s;
            return this;
        }

        /** The order of candidates of equal priority ({@code platform.dev/preemption-order}). */
        public ClusterQueueBuilder preemptionOrder(PreemptionOrder order) {
            this.preemptionOrder = order;
            return this;
        }

        /** Adds a quota; nominal, borrowingLimit and lendingLimit as quantity strings, null for none. */
        public ClusterQueueBuilder quota(String flavor, String resource, String nominal, String borrowingLimit, String lendingLimit) {
            if (!covered.contains(resource)) {
                covered.add(resource);
            }
            flavors.computeIfAbsent(flavor, k -> new ArrayList<>()).add(new ResourceQuota(resource, milli(nominal),
                    borrowingLimit == null ? null : milli(borrowingLimit), lendingLimit == null ? null : milli(lendingLimit)));
            return this;
        }

        public ClusterQueueBuilder quota(String flavor, String resource, String nominal) {
            return quota(flavor, resource, nominal, null, null);
        }

        /** Its admitted workloads are no preemption victims for {@code minimumRuntime} after their admission. */
        public ClusterQueueBuilder minimumRuntime(Duration minimumRuntime) {
            this.protection = new VictimProtection(minimumRuntime, false);
            return this;
        }

        public ClusterQueueSpec build() {
            List<FlavorQuotas> fq = new ArrayList<>();
            flavors.forEach((f, rs) -> fq.add(new FlavorQuotas(f, rs)));
            return new ClusterQueueSpec(name, cohort, List.of(new ResourceGroup(covered, fq)), strategy,
                    namespaceSelector, fungibility, preemption, weight, stop, admissionMode, protection, preemptionOrder);
        }
    }
}
