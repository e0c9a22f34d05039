package dev.platform.scheduler.kubernetes;

import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.scheduler.config.AppliedObjects;
import dev.platform.scheduler.config.ConfigurationService;
import dev.platform.scheduler.config.ManifestApplication;
import dev.platform.scheduler.kubernetes.registry.Access;
import dev.platform.scheduler.kubernetes.registry.CoreSchemas;
import dev.platform.scheduler.kubernetes.registry.JobSchemas;
import dev.platform.scheduler.kubernetes.registry.KindRegistry;
import dev.platform.scheduler.kubernetes.registry.KueueSchemas;
import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.kubernetes.registry.Objects;
import dev.platform.scheduler.kubernetes.registry.PrinterColumn;
import dev.platform.scheduler.kubernetes.registry.ResourceKind;
import dev.platform.scheduler.kubernetes.registry.Schemas;
import dev.platform.scheduler.kubernetes.registry.Verb;
import dev.platform.scheduler.kubernetes.storage.AccessReviewStore;
import dev.platform.scheduler.kubernetes.storage.ConfigObjectStore;
import dev.platform.scheduler.kubernetes.storage.ConfigViews;
import dev.platform.scheduler.kubernetes.storage.EventStore;
import dev.platform.scheduler.kubernetes.storage.VisibilityStore;
import dev.platform.scheduler.visibility.KueueVisibilityController;
import dev.platform.scheduler.kubernetes.storage.KueueWorkloadStore;
import dev.platform.scheduler.kubernetes.storage.WorkloadObjectStore;
import dev.platform.scheduler.workload.QueueConfiguration;
import dev.platform.scheduler.workload.SubmissionRateLimiter;
import dev.platform.scheduler.workload.WorkloadService;
import dev.platform.scheduler.workload.WorkloadStatuses;
import dev.platform.scheduler.workload.WorkloadStore;
import dev.platform.scheduler.workload.WorkloadUpdates;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Function;

import static dev.platform.scheduler.kubernetes.registry.PrinterColumn.age;
import static dev.platform.scheduler.kubernetes.registry.PrinterColumn.column;
import static dev.platform.scheduler.kubernetes.registry.PrinterColumn.wide;

/**
 * The kinds the Kubernetes API serves: Kueue's (v1beta2 preferred, v1beta1 too), JobSet, batch Jobs, PriorityClass,
 * Namespace, the platform's Team and the access reviews of {@code kubectl auth can-i}, each with the short names,
 * printer columns and categories its users know from Kueue's and JobSet's CRDs and from Kubernetes itself.
 */
@Configuration(proxyBeanMethods = false)
class ServedKinds {

    private static final List<String> KUEUE_VERSIONS = List.of("v1beta2", "v1beta1");
    private static final List<String> KUEUE_CATEGORY = List.of("kueue");
    /**
     * How long a watch of Events waits for a timeline entry whose id is missing below committed ones: longer than a
     * writer of a cycle's entries holds its transaction open.
     */
    private static final Duration EVENT_GAP_PATIENCE = Duration.ofSeconds(5);

    @Bean
    KindRegistry kindRegistry(ConfigViews views, AppliedObjects applied, ManifestParser parser,
                              ManifestApplication application, ConfigurationService configuration,
                              TransactionTemplate transactions, JsonMapper json, Clock clock, WorkloadStore workloads,
                              WorkloadStatuses statuses, WorkloadService workloadService, WorkloadUpdates updates,
                              SubmissionRateLimiter rate, KueueVisibilityController visibility,
                              QueueConfiguration queueConfiguration) {
        ConfigObjectStore.ConfigStoreDependencies config = new ConfigObjectStore.ConfigStoreDependencies(applied,
                parser, application, configuration, transactions, json, clock);
        WorkloadObjectStore.WorkloadStores workloadStores = new WorkloadObjectStore.WorkloadStores(workloads, statuses,
                workloadService, updates, parser, application, rate, json);
        AtomicReference<KindRegistry> self = new AtomicReference<>();
        List<ResourceKind> kinds = new ArrayList<>();

        kinds.add(kueue(Kind.RESOURCE_FLAVOR, "resourceflavors", "resourceflavor", List.of("flavor", "flavors", "rf"),
                List.of(age()), views, config, KueueSchemas::resourceFlavor));
        kinds.add(kueue(Kind.COHORT, "cohorts", "cohort", List.of(), List.of(
                        column("Parent", "string", ".spec.parentName", "The cohort this cohort borrows from and lends to"),
                        age()),
                views, config, KueueSchemas::cohort));
        kinds.add(kueue(Kind.CLUSTER_QUEUE, "clusterqueues", "clusterqueue", List.of("cq"), List.of(
                        column("Cohort", "string", ".spec.cohortName", "Cohort that this ClusterQueue belongs to"),
                        wide("Strategy", "string", ".spec.queueingStrategy",
                                "The queueing strategy used to prioritize workloads"),
                        column("Pending Workloads", "integer", ".status.pendingWorkloads", "Number of pending workloads"),
                        wide("Admitted Workloads", "integer", ".status.admittedWorkloads",
                                "Number of admitted workloads that haven't finished yet")),
                views, config, KueueSchemas::clusterQueue));
        kinds.add(kueue(Kind.LOCAL_QUEUE, "localqueues", "localqueue", List.of("queue", "queues", "lq"), List.of(
                        column("ClusterQueue", "string", ".spec.clusterQueue", "Backing ClusterQueue"),
                        column("Pending Workloads", "integer", ".status.pendingWorkloads", "Number of pending workloads"),
                        column("Admitted Workloads", "integer", ".status.admittedWorkloads",
                                "Number of admitted workloads that haven't finished yet.")),
                views, config, KueueSchemas::localQueue));
        kinds.add(kueue(Kind.WORKLOAD_PRIORITY_CLASS, "workloadpriorityclasses", "workloadpriorityclass",
                List.of("wpc"), List.of(column("Value", "integer", ".value", "Value of workloadPriorityClass's Priority"),
                        age()),
                views, config, KueueSchemas::workloadPriorityClass));

        kinds.add(kueue(Kind.ADMISSION_CHECK, "admissionchecks", "admissioncheck", List.of(), List.of(age()), views,
                config, KueueSchemas::admissionCheck));
        kinds.add(kueue(Kind.PROVISIONING_REQUEST_CONFIG, "provisioningrequestconfigs", "provisioningrequestconfig",
                List.of(), List.of(age()), views, config, KueueSchemas::provisioningRequestConfig));

        WorkloadObjectStore kueueWorkloads = new WorkloadObjectStore("Workload", workloadStores);
        kinds.add(new ResourceKind("kueue.x-k8s.io", KUEUE_VERSIONS, "Workload", "workloads", "workload",
                true, List.of("wl", "kwl"), KUEUE_CATEGORY, EnumSet.of(Verb.create, Verb.delete, Verb.get, Verb.list,
                Verb.patch, Verb.update, Verb.watch), List.of(
                column("Queue", "string", ".spec.queueName", "Name of the queue this workload was submitted to"),
                column("Reserved in", "string", ".status.admission.clusterQueue",
                        "Name of the ClusterQueue where the workload is reserving quota"),
                column("Admitted", "string", ".status.conditions[?(@.type=='Admitted')].status", "Admission status"),
                column("Finished", "string", ".status.conditions[?(@.type=='Finished')].status", "Workload finished"),
                column("Age", "date", ".metadata.creationTimestamp", "Time this workload was created")),
                KueueSchemas::workload,
                new KueueWorkloadStore(workloads, statuses, updates, kueueWorkloads,
                        queueConfiguration), Access.namespaced(),
                ServedKinds::convertKueue, List.of("status")));

        kinds.add(new ResourceKind("jobset.x-k8s.io", List.of("v1alpha2"), "JobSet", "jobsets", "jobset", true,
                List.of(), List.of("all"), Verb.READ_WRITE, List.of(
                column("TerminalState", "string", ".status.terminalState",
                        "Final state of JobSet: Completed or Failed"),
                column("Restarts", "string", ".status.restarts", "Number of restarts"),
                column("Completed", "string", ".status.conditions[?(@.type==\"Completed\")].status",
                        "JobSet completed"),
                column("Suspended", "string", ".spec.suspend", "JobSet suspended"),
                age()),
                Schemas.inEveryVersion(JobSchemas.jobSet()),
                new WorkloadObjectStore("JobSet", workloadStores), Access.namespaced(), ServedKinds::sameShape,
                List.of("status")));
        kinds.add(new ResourceKind("batch", List.of("v1"), "Job", "jobs", "job", true, List.of(), List.of("all"),
                Verb.READ_WRITE, List.of(
                PrinterColumn.computed("Status", "string", "Status of the job", 0, ServedKinds::jobStatus),
                PrinterColumn.computed("Completions", "string", "The completed pods of the desired", 0,
                        ServedKinds::jobCompletions),
                column("Duration", "string", ".status.duration", "Time the job ran"),
                age()),
                Schemas.inEveryVersion(JobSchemas.job()),
                new WorkloadObjectStore("Job", workloadStores), Access.namespaced(), ServedKinds::sameShape,
                List.of("status")));

        kinds.add(config(Kind.PRIORITY_CLASS, "scheduling.k8s.io", List.of("v1"), "priorityclasses", "priorityclass",
                List.of("pc"), List.of(), List.of(
                        column("Value", "integer", ".value", "The priority of pods of this class"),
                        column("Global-Default", "boolean", ".globalDefault", "Whether it is the default"),
                        age(),
                        column("PreemptionPolicy", "string", ".preemptionPolicy", "The policy for preempting pods")),
                Schemas.inEveryVersion(CoreSchemas.priorityClass()),
                views, config, Access.configuration()));
        kinds.add(config(Kind.NAMESPACE, "", List.of("v1"), "namespaces", "namespace", List.of("ns"), List.of(),
                List.of(column("Status", "string", ".status.phase", "The phase of the namespace"), age()),
                Schemas.inEveryVersion(CoreSchemas.namespace()),
                views, config, Access.configuration()));
        kinds.add(config(Kind.TEAM, "platform.dev", List.of("v1"), "teams", "team", List.of(), List.of(),
                List.of(column("Namespaces", "string", ".spec.namespaces", "The namespaces the team owns"), age()),
                Schemas.inEveryVersion(CoreSchemas.team()),
                views, config, Access.configuration()));

        kinds.add(new ResourceKind("", List.of("v1"), "Event", "events", "event", true, List.of("ev"), List.of(),
                Verb.READ_ONLY,
                List.of(column("Last Seen", "date", ".lastTimestamp", "When the event last happened"),
                        column("Type", "string", ".type", "Normal or Warning"),
                        column("Reason", "string", ".reason", "Why the action was taken"),
                        PrinterColumn.computed("Object", "string", "The object the event is about", 0,
                                event -> Objects.map(event, "involvedObject").get("kind").toString().toLowerCase()
                                        + "/" + Objects.map(event, "involvedObject").get("name")),
                        column("Message", "string", ".message", "What happened")),
                Schemas.inEveryVersion(CoreSchemas.event()),
                new EventStore(workloads, clock, EVENT_GAP_PATIENCE), Access.readOnlyNamespaced(), ServedKinds::sameShape, List.of()));
        for (boolean local : List.of(false, true)) {
            kinds.add(new ResourceKind("visibility.kueue.x-k8s.io", KUEUE_VERSIONS, local ? "LocalQueue" : "ClusterQueue",
                    local ? "localqueues" : "clusterqueues", local ? "localqueue" : "clusterqueue", local, List.of(),
                    List.of(), Set.of(Verb.get), List.of(), Schemas.inEveryVersion(
                    KueueSchemas.visibilityQueue(local ? "LocalQueue" : "ClusterQueue")),
                    new VisibilityStore(local, visibility),
                    local ? Access.readOnlyNamespaced() : Access.anyCaller(), ServedKinds::sameShape,
                    List.of("pendingworkloads")));
        }
        kinds.add(review("SelfSubjectAccessReview", "selfsubjectaccessreviews", "selfsubjectaccessreview",
                CoreSchemas.selfSubjectAccessReview(), new AccessReviewStore(false, self::get)));
        kinds.add(review("SelfSubjectRulesReview", "selfsubjectrulesreviews", "selfsubjectrulesreview",
                CoreSchemas.selfSubjectRulesReview(), new AccessReviewStore(true, self::get)));

        KindRegistry registry = new KindRegistry(kinds);
        self.set(registry);
        return registry;
    }

    private static ResourceKind kueue(Kind kind, String plural, String singular, List<String> shortNames,
                                      List<PrinterColumn> columns, ConfigViews views,
                                      ConfigObjectStore.ConfigStoreDependencies config,
                                      Function<String, Map<String, Object>> schema) {
        return new ResourceKind("kueue.x-k8s.io", KUEUE_VERSIONS, kind.manifestName(), plural, singular,
                kind.namespaced(), shortNames, KUEUE_CATEGORY, Verb.READ_WRITE, columns, schema,
                new ConfigObjectStore(kind, views.of(kind), config, o -> convertKueue(o, "v1beta2")),
                kind == Kind.LOCAL_QUEUE ? Access.localQueues() : Access.configuration(),
                ServedKinds::convertKueue, List.of(Kind.CLUSTER_QUEUE, Kind.LOCAL_QUEUE, Kind.COHORT,
                        Kind.ADMISSION_CHECK).contains(kind) ? List.of("status") : List.of());
    }

    private static ResourceKind config(Kind kind, String group, List<String> versions, String plural, String singular,
                                       List<String> shortNames, List<String> categories, List<PrinterColumn> columns,
                                       Function<String, Map<String, Object>> schema, ConfigViews views,
                                       ConfigObjectStore.ConfigStoreDependencies config, Access access) {
        BiFunction<Map<String, Object>, String, Map<String, Object>> conversion = ServedKinds::sameShape;
        return new ResourceKind(group, versions, kind.manifestName(), plural, singular, kind.namespaced(), shortNames,
                categories, Verb.READ_WRITE, columns, schema,
                new ConfigObjectStore(kind, views.of(kind), config, o -> sameShape(o, versions.get(0))), access,
                conversion, List.of());
    }

    private static ResourceKind review(String kind, String plural, String singular, Map<String, Object> schema,
                                       ObjectStore store) {
        return new ResourceKind("authorization.k8s.io", List.of("v1"), kind, plural, singular, false, List.of(),
                List.of(), Set.of(Verb.create), List.of(), Schemas.inEveryVersion(schema), store, Access.anyCaller(),
                ServedKinds::sameShape, List.of());
    }

    /** A kind whose versions have one shape: only {@code apiVersion} differs. */
    private static Map<String, Object> sameShape(Map<String, Object> object, String version) {
        Map<String, Object> converted = new LinkedHashMap<>(object);
        String apiVersion = String.valueOf(object.get("apiVersion"));
        int slash = apiVersion.indexOf('/');
        converted.put("apiVersion", slash < 0 ? version : apiVersion.substring(0, slash + 1) + version);
        return converted;
    }

    /**
     * Kueue's v1beta1 and v1beta2: a ClusterQueue names its cohort in {@code spec.cohort} in v1beta1 and in
     * {@code spec.cohortName} in v1beta2; a Workload names its priority class in {@code spec.priorityClassName} and
     * {@code spec.priorityClassSource} in v1beta1 and in {@code spec.priorityClassRef} in v1beta2; the rest of the
     * served fields read the same in both.
     */
    static Map<String, Object> convertKueue(Map<String, Object> object, String version) {
        Map<String, Object> converted = sameShape(object, version);
        converted.put("apiVersion", "kueue.x-k8s.io/" + version);
        if ("ClusterQueue".equals(object.get("kind")) && object.get("spec") instanceof Map<?, ?>) {
            Map<String, Object> spec = Objects.mapIn(converted, "spec");
            String from = version.equals("v1beta1") ? "cohortName" : "cohort";
            String to = version.equals("v1beta1") ? "cohort" : "cohortName";
            if (spec.containsKey(from)) {
                spec.put(to, spec.remove(from));
            }
        }
        if ("Workload".equals(object.get("kind")) && version.equals("v1beta2")
                && Objects.map(object, "spec").containsKey("priorityClassName")) {
            Map<String, Object> spec = Objects.mapIn(converted, "spec");
            Object name = spec.remove("priorityClassName");
            boolean workloadClass = KueueWorkloadStore.WORKLOAD_PRIORITY_CLASS_SOURCE.equals(
                    spec.remove("priorityClassSource"));
            Map<String, Object> ref = new LinkedHashMap<>();
            ref.put("group", workloadClass ? "kueue.x-k8s.io" : "scheduling.k8s.io");
            ref.put("kind", workloadClass ? "WorkloadPriorityClass" : "PriorityClass");
            ref.put("name", name);
            spec.put("priorityClassRef", ref);
        }
        return converted;
    }

    private static Object jobStatus(Map<String, Object> job) {
        Object conditions = Objects.map(job, "status").get("conditions");
        if (conditions instanceof List<?> list) {
            for (Object c : list) {
                if (c instanceof Map<?, ?> m && "True".equals(m.get("status"))) {
                    return switch (String.valueOf(m.get("type"))) {
                        case "Complete" -> "Complete";
                        case "Failed" -> "Failed";
                        case "Suspended" -> "Suspended";
                        default -> "Running";
                    };
                }
            }
        }
        return "Running";
    }

    private static Object jobCompletions(Map<String, Object> job) {
        Object completions = Objects.map(job, "spec").getOrDefault("completions", 1);
        Object succeeded = Objects.map(job, "status").getOrDefault("succeeded", 0);
        return succeeded + "/" + completions;
    }
}
