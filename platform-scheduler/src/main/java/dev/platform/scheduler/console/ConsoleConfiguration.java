package dev.platform.scheduler.console;

import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.CohortManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.LabelSelector;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.api.manifest.NamespaceManifest;
import dev.platform.api.manifest.TeamManifest;
import dev.platform.api.manifest.PriorityClassManifest;
import dev.platform.api.manifest.Quantity;
import dev.platform.api.manifest.ResourceFlavorManifest;
import dev.platform.api.manifest.ResourceGroup;
import dev.platform.api.manifest.WorkloadPriorityClassManifest;
import dev.platform.scheduler.config.ConfigStore;
import dev.platform.web.configuration.ConfigurationQueries;
import dev.platform.web.configuration.ConfigurationQueries.TeamView;
import dev.platform.web.console.LocalQueueView;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The configuration as applied, one statement per kind, with Kueue's defaults shown explicitly. */
@Component
class ConsoleConfiguration implements ConfigurationQueries {

    private final ConfigStore config;

    ConsoleConfiguration(ConfigStore config) {
        this.config = config;
    }

    @Override
    public ConfigurationView configuration() {
        List<ClusterQueueManifest> queues = config.list(Kind.CLUSTER_QUEUE, ClusterQueueManifest.class);
        List<PriorityClassView> priorities = Stream.concat(
                        config.list(Kind.PRIORITY_CLASS, PriorityClassManifest.class).stream()
                                .map(p -> new PriorityClassView("PriorityClass", p.name(), p.value(), p.globalDefault(),
                                        p.preemptionPolicy(), p.description())),
                        config.list(Kind.WORKLOAD_PRIORITY_CLASS, WorkloadPriorityClassManifest.class).stream()
                                .map(p -> new PriorityClassView("WorkloadPriorityClass", p.name(), p.value(), false,
                                        null, p.description())))
                .sorted(Comparator.comparingInt(PriorityClassView::value).reversed()
                        .thenComparing(PriorityClassView::name))
                .toList();
        return new ConfigurationView(
                config.list(Kind.RESOURCE_FLAVOR, ResourceFlavorManifest.class).stream().map(ConsoleConfiguration::flavor).toList(),
                cohorts(config.list(Kind.COHORT, CohortManifest.class), queues),
                queues.stream().map(ConsoleConfiguration::policies).toList(),
                config.list(Kind.LOCAL_QUEUE, LocalQueueManifest.class).stream()
                        .map(l -> new LocalQueueView(l.namespace(), l.name(), l.clusterQueue(), l.stopPolicy().name()))
                        .toList(),
                priorities,
                config.list(Kind.NAMESPACE, NamespaceManifest.class).stream()
                        .map(n -> new NamespaceView(n.name(), new TreeMap<>(n.labels())))
                        .toList(),
                config.list(Kind.TEAM, TeamManifest.class).stream()
                        .map(t -> new TeamView(t.name(), t.namespaces(), t.members().stream()
                                .map(m -> m.user() + " (" + m.role() + ")").toList(), t.allowedPriorityClasses()))
                        .toList());
    }

    /** Cohort objects and implicit cohorts (named by a ClusterQueue only), each with its members. */
    private static List<CohortView> cohorts(List<CohortManifest> objects, List<ClusterQueueManifest> queues) {
        Map<String, List<String>> members = new TreeMap<>();
        objects.forEach(c -> members.put(c.name(), new ArrayList<>()));
        queues.stream().filter(q -> q.cohort() != null)
                .forEach(q -> members.computeIfAbsent(q.cohort(), k -> new ArrayList<>()).add(q.name()));
        Map<String, CohortManifest> byName = objects.stream()
                .collect(Collectors.toMap(CohortManifest::name, c -> c));
        return members.entrySet().stream().map(e -> {
            CohortManifest c = byName.get(e.getKey());
            return c == null
                    ? new CohortView(e.getKey(), true, null, null, List.of(), e.getValue())
                    : new CohortView(c.name(), false, c.parentName(), text(c.fairSharing().weight()),
                            quotas(c.resourceGroups()), e.getValue());
        }).toList();
    }

    private static ClusterQueuePolicies policies(ClusterQueueManifest q) {
        ClusterQueueManifest.BorrowWithinCohort borrow = q.preemption().borrowWithinCohort();
        return new ClusterQueuePolicies(q.name(), q.cohort(), q.queueingStrategy().name(), selector(q.namespaceSelector()),
                q.preemption().withinClusterQueue().name(), q.preemption().reclaimWithinCohort().name(),
                borrow.policy().name() + (borrow.maxPriorityThreshold() == null ? ""
                        : " (maxPriorityThreshold " + borrow.maxPriorityThreshold() + ")"),
                q.flavorFungibility().whenCanBorrow().name(), q.flavorFungibility().whenCanPreempt().name(),
                q.flavorFungibility().preference() == null ? null : q.flavorFungibility().preference().name(),
                text(q.fairSharing().weight()), q.stopPolicy().name(), quotas(q.resourceGroups()));
    }

    private static FlavorView flavor(ResourceFlavorManifest f) {
        return new FlavorView(f.name(), new TreeMap<>(f.nodeLabels()),
                f.nodeTaints().stream().map(t -> taint(t.key(), t.value(), t.effect())).toList(),
                f.tolerations().stream().map(t -> ("Exists".equals(t.operator()) ? t.key() + " exists"
                        : taint(t.key(), t.value(), null)) + (t.effect() == null ? "" : ":" + t.effect())).toList(),
                f.topologyName());
    }

    private static String taint(String key, String value, String effect) {
        return key + (value == null ? "" : "=" + value) + (effect == null ? "" : ":" + effect);
    }

    /** kubectl's selector syntax: {@code team=a,env in (x,y)}; empty selects every namespace. */
    private static String selector(LabelSelector selector) {
        List<String> terms = new ArrayList<>();
        new TreeMap<>(selector.matchLabels()).forEach((k, v) -> terms.add(k + "=" + v));
        for (LabelSelector.Requirement r : selector.matchExpressions()) {
            terms.add(switch (r.operator()) {
                case "Exists" -> r.key();
                case "DoesNotExist" -> "!" + r.key();
                default -> r.key() + " " + r.operator().toLowerCase() + " (" + String.join(",", r.values()) + ")";
            });
        }
        return String.join(",", terms);
    }

    private static List<QuotaLine> quotas(List<ResourceGroup> groups) {
        return groups.stream().flatMap(g -> g.flavors().stream())
                .flatMap(f -> f.resources().stream().map(r -> new QuotaLine(f.name(), r.name(),
                        text(r.nominalQuota()), text(r.borrowingLimit()), text(r.lendingLimit()))))
                .toList();
    }

    private static String text(Quantity quantity) {
        return quantity == null ? null : quantity.toString();
    }
}
