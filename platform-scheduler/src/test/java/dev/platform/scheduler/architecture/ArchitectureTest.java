package dev.platform.scheduler.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dependency rules of the modules and packages (docs/architecture.md), the one writer of the workload table
 * and the feature that owns each table, enforced by the build rather than by review.
 */
class ArchitectureTest {

    private static JavaClasses production;

    @BeforeAll
    static void importClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // in a packaged build the other modules' test classes come as test jars, which the option above misses
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("dev.platform");
    }

    @Test
    void schedulingCoreIsPureJava() {
        ArchRule rule = classes().that().resideInAPackage("dev.platform.scheduler.core..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("dev.platform.scheduler.core..", "dev.platform.api.reason..", "java..")
                .because("the core works on snapshots and must be testable and benchmarkable without any framework");
        rule.check(production);
    }

    @Test
    void onlyControllersAndTheWebLayerSpeakHttp() {
        ArchRule rule = noClasses().that().resideInAPackage("dev.platform.scheduler..")
                .and().resideOutsideOfPackages("dev.platform.scheduler.web..", "dev.platform.scheduler.security..",
                        "dev.platform.scheduler.console..", "dev.platform.scheduler.kubernetes.handlers..")
                .and().haveSimpleNameNotEndingWith("Controller")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework.http..",
                        "org.springframework.web..")
                .because("services refuse with a Refusal of a domain kind; the web layer alone maps it to a status");
        rule.check(production);
    }

    /**
     * The Kubernetes API is a layer above the platform's services, as kube-apiserver's handlers are above its
     * storage: it maps onto them, and nothing below it knows it is there.
     */
    @Test
    void nothingDependsOnTheKubernetesApi() {
        ArchRule rule = noClasses().that().resideInAPackage("dev.platform..")
                .and().resideOutsideOfPackage("dev.platform.scheduler.kubernetes..")
                .should().dependOnClassesThat().resideInAPackage("dev.platform.scheduler.kubernetes..")
                .because("the Kubernetes API is an interface over the services, not a part of them");
        rule.check(production);
    }

    /** The registry and the stores know no HTTP: the verb handlers alone speak it. */
    @Test
    void theKubernetesApisRegistryAndStoresSpeakNoHttp() {
        ArchRule rule = noClasses().that().resideInAnyPackage("dev.platform.scheduler.kubernetes.registry..",
                        "dev.platform.scheduler.kubernetes.storage..")
                .should().dependOnClassesThat().resideInAnyPackage("jakarta.servlet..",
                        "dev.platform.scheduler.kubernetes.handlers..");
        rule.check(production);
    }

    @Test
    void theReasonVocabularyIsPureJava() {
        ArchRule rule = classes().that().resideInAPackage("dev.platform.api.reason..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.platform.api.reason..", "java..")
                .because("the core, the REST API and the console share these reasons");
        rule.check(production);
    }

    @Test
    void coreDoesNotReachOutToAdapters() {
        ArchRule rule = noClasses().that().resideInAPackage("dev.platform.scheduler.core..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("org.springframework..", "jakarta.persistence..", "tools.jackson..",
                        "com.fasterxml.jackson..", "io.kubernetes..", "java.sql..", "javax.sql..");
        rule.check(production);
    }

    @Test
    void consoleReadsThroughPortsNotSchedulerInternals() {
        ArchRule rule = noClasses().that().resideInAPackage("dev.platform.web..")
                .should().dependOnClassesThat().resideInAPackage("dev.platform.scheduler..");
        rule.check(production);
    }

    @Test
    void apiModelDependsOnNoApplicationModule() {
        ArchRule rule = noClasses().that().resideInAPackage("dev.platform.api..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("dev.platform.scheduler..", "dev.platform.web..", "dev.platform.agent..",
                        "org.springframework..");
        rule.check(production);
    }

    @Test
    void featuresDoNotDependOnTheSchedulerApplicationClass() {
        ArchRule rule = noClasses().that().resideInAPackage("dev.platform.scheduler.(*)..")
                .should().dependOnClassesThat().haveSimpleName("SchedulerApplication");
        rule.check(production);
    }

    /**
     * The scheduler's features depend on one another one way: a cycle is a call back up that wants an event or a
     * port. The scheduling core counts as one feature here; the next rule looks inside it.
     */
    @Test
    void noCyclesBetweenTheSchedulersFeatures() {
        slices().matching("dev.platform.scheduler.(*)..").namingSlices("$1")
                .should().beFreeOfCycles().check(production);
    }

    /**
     * The core's packages are layers: the model at the bottom, the quota tree on it, preemption on both, the
     * admission cycle on all three, the forecast on top. Each package is its own slice, the core's root included.
     */
    private static final SliceAssignment EACH_PACKAGE_OF_THE_CORE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String pkg = javaClass.getPackageName();
            boolean core = pkg.equals("dev.platform.scheduler.core") || pkg.startsWith("dev.platform.scheduler.core.");
            return core ? SliceIdentifier.of(pkg) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "each package of the scheduling core";
        }
    };

    @Test
    void noCyclesBetweenTheCoresPackages() {
        slices().assignedFrom(EACH_PACKAGE_OF_THE_CORE).should().beFreeOfCycles().check(production);
    }

    /** The agent, the API records and the console pages have no cycles between any of their packages. */
    @Test
    void noPackageCyclesInTheOtherModules() {
        for (String module : List.of("agent", "api", "web")) {
            slices().matching("dev.platform." + module + ".(**)").namingSlices("$1")
                    .should().beFreeOfCycles().check(production);
        }
    }

    /**
     * Every change of a workload goes through {@code WorkloadTransitions}, which bumps its version and change
     * sequence: a write elsewhere could forget them and the scheduling loop would miss the change.
     */
    @Test
    void onlyWorkloadTransitionsWritesTheWorkloadTable() throws IOException {
        Pattern write = Pattern.compile("(?i)\\b(UPDATE|INSERT\\s+INTO|DELETE\\s+FROM)\\s+workload\\b(?!_)");
        Path sources = Path.of("src", "main", "java");
        List<String> writers;
        try (Stream<Path> files = Files.walk(sources)) {
            writers = files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> write.matcher(read(f)).find())
                    .map(f -> sources.relativize(f).toString())
                    .toList();
        }
        assertThat(writers).containsExactly(Path.of("dev", "platform", "scheduler", "workload",
                "WorkloadTransitions.java").toString());
    }

    /**
     * One committer: a class that changes workloads through {@code WorkloadTransitions} and also queues agent
     * commands is where a decision's transition and the command that follows it could drift apart. Every decider
     * returns decisions, and {@code DecisionCommitter} alone writes both in one fenced transaction.
     */
    @Test
    void onlyTheDecisionCommitterChangesWorkloadsAndQueuesAgentCommands() {
        Set<String> changing = callersOf("dev.platform.scheduler.workload.WorkloadTransitions",
                Set.of("lockChanges", "appendEvents", "deleteFinishedBefore"));
        Set<String> queueing = callersOf("dev.platform.scheduler.cluster.AgentCommandStore",
                Set.of("lastCluster"));
        changing.retainAll(queueing);
        assertThat(changing).containsExactly("dev.platform.scheduler.commit.DecisionCommitter");
    }

    /** The top-level classes (outside the owner) calling a method of {@code owner} but those {@code except}. */
    private static Set<String> callersOf(String owner, Set<String> except) {
        Set<String> callers = new TreeSet<>();
        for (JavaClass c : production) {
            c.getMethodCallsFromSelf().stream()
                    .filter(call -> call.getTargetOwner().getName().equals(owner))
                    .filter(call -> !except.contains(call.getName()))
                    .forEach(call -> callers.add(c.getName().replaceFirst("\\$.*", "")));
        }
        callers.remove(owner);
        return callers;
    }

    /**
     * The feature package that owns each table: its SQL alone names the table, and the other features read the table
     * through that package's ports. A table the migrations create must have an owner here.
     */
    private static final Map<String, Set<String>> TABLE_OWNERS = Map.ofEntries(
            Map.entry("workload", Set.of("workload")),
            Map.entry("workload_event", Set.of("workload")),
            Map.entry("workload_usage", Set.of("workload")),
            Map.entry("workload_pending_reason", Set.of("workload")),
            Map.entry("workload_origin", Set.of("workload")),
            Map.entry("workload_forecast", Set.of("forecast")),
            Map.entry("cluster_queue_forecast", Set.of("forecast")),
            Map.entry("cluster_queue", Set.of("config")),
            Map.entry("cluster_queue_quota", Set.of("config")),
            Map.entry("cluster_queue_usage_sample", Set.of("config")),
            Map.entry("cluster_queue_workload_count", Set.of("config")),
            Map.entry("cluster_queue_workload_count_change", Set.of("config")),
            Map.entry("local_queue_workload_count", Set.of("config")),
            Map.entry("configuration_generation", Set.of("config")),
            Map.entry("cohort", Set.of("config")),
            Map.entry("cohort_quota", Set.of("config")),
            Map.entry("config_audit", Set.of("config")),
            Map.entry("applied_object", Set.of("config")),
            Map.entry("workload_compaction", Set.of("workload")),
            Map.entry("managed_fields", Set.of("kubernetes")),
            Map.entry("local_queue", Set.of("config")),
            Map.entry("local_queue_usage", Set.of("config")),
            Map.entry("namespace", Set.of("config")),
            Map.entry("priority_class", Set.of("config")),
            Map.entry("resource_flavor", Set.of("config")),
            Map.entry("admission_check", Set.of("config")),
            Map.entry("provisioning_request_config", Set.of("config")),
            Map.entry("workload_admission_check", Set.of("admissioncheck")),
            Map.entry("workload_check_reservation", Set.of("admissioncheck")),
            Map.entry("provisioned_node_pool", Set.of("admissioncheck")),
            Map.entry("cluster", Set.of("cluster")),
            Map.entry("cluster_workload", Set.of("cluster")),
            Map.entry("node", Set.of("cluster")),
            Map.entry("node_pool", Set.of("cluster")),
            Map.entry("agent_command", Set.of("cluster")),
            Map.entry("hotswap_event", Set.of("hotswap")),
            Map.entry("preemption_event", Set.of("preemption")),
            Map.entry("lost_work", Set.of("preemption")),
            Map.entry("scheduler_leader", Set.of("scheduling", "leadership")),
            Map.entry("access_audit", Set.of("identity")),
            Map.entry("agent_token", Set.of("identity")),
            Map.entry("api_credential", Set.of("identity")),
            Map.entry("api_token", Set.of("identity")),
            Map.entry("app_user", Set.of("identity")),
            Map.entry("team", Set.of("identity")),
            Map.entry("team_member", Set.of("identity")),
            Map.entry("team_namespace", Set.of("identity")),
            Map.entry("spring_session", Set.of("security")),
            Map.entry("spring_session_attributes", Set.of("security")));

    /**
     * The classes that still name another feature's table in their SQL, each a decision: a set-based write that
     * follows another table (WorkloadTransitions), the retention cleaner, the console's one-statement change feed,
     * the joins of the read models that page over workloads with their forecasts and inventory, the positions
     * that subtract from the queues' pending counts, and the
     * reconciliation's joins of a cluster's reports with the workloads started there (ClusterWorkloads) and of a
     * blocked hotswap's victims with the pools their pods still hold (HotswapStore), the agents' decision feed's
     * timelines of the workloads sent commands in a cluster (WorkloadOrigins), the inventory's join of the pools with
     * the workloads they were provisioned for (NodePoolInventory). A new one
     * fails the build; it reads through the owner's port instead, or is added here with its reason.
     */
    private static final Map<String, Set<String>> CROSS_FEATURE_SQL = Map.ofEntries(
            Map.entry("workload/WorkloadTransitions", Set.of("local_queue", "agent_command",
                    "workload_check_reservation")),
            Map.entry("admissioncheck/WorkloadChecks", Set.of("workload")),
            Map.entry("cluster/NodePoolInventory", Set.of("provisioned_node_pool")),
            Map.entry("workload/WorkloadOrigins", Set.of("agent_command")),
            Map.entry("workload/WorkloadStore", Set.of("cluster_queue", "cluster_queue_forecast", "workload_forecast",
                    "local_queue_usage", "cluster_queue_workload_count", "local_queue_workload_count")),
            Map.entry("retention/HistoryRetention", Set.of("workload_event", "hotswap_event", "preemption_event",
                    "lost_work")),
            Map.entry("console/ConsoleChangeFeed", Set.of("workload", "cluster", "cluster_workload", "node_pool",
                    "local_queue", "hotswap_event", "cluster_queue_workload_count")),
            Map.entry("console/ConsoleNodePools", Set.of("node")),
            Map.entry("config/ConfigStore", Set.of("workload")),
            Map.entry("config/QueueUsage", Set.of("workload_usage")),
            Map.entry("config/QueueUsageHistory", Set.of("workload_usage")),
            Map.entry("forecast/ForecastStore", Set.of("workload")),
            Map.entry("hotswap/HotswapStore", Set.of("workload", "agent_command", "cluster_workload")),
            Map.entry("cluster/AgentCommandStore", Set.of("workload")),
            Map.entry("cluster/ClusterQueries", Set.of("workload")),
            Map.entry("cluster/ClusterWorkloads", Set.of("workload")));

    private static final Pattern COMMENT = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*");
    private static final Pattern SQL_TABLE = Pattern.compile("(?i)\\b(?:FROM|JOIN|UPDATE|INTO)\\s+([a-z_]+)\\b");

    @Test
    void everyTableHasAnOwningFeature() throws IOException {
        Pattern created = Pattern.compile("(?i)CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?([a-z_]+)");
        Set<String> tables = new TreeSet<>();
        try (Stream<Path> files = Files.list(Path.of("..", "db", "src", "main", "resources", "db", "migration"))) {
            files.filter(f -> f.toString().endsWith(".sql"))
                    .forEach(f -> created.matcher(read(f)).results().forEach(m -> tables.add(m.group(1).toLowerCase())));
        }
        assertThat(tables).isNotEmpty();
        assertThat(TABLE_OWNERS.keySet()).containsAll(tables);
    }

    /**
     * A feature's SQL names only the tables it owns, but for the cross-feature reads listed above; a listed one that
     * went away leaves the list too.
     */
    @Test
    void eachTableIsNamedInTheSqlOfItsOwningFeatureOnly() throws IOException {
        assertThat(tablesNamedOutsideTheirOwner(Path.of("src", "main", "java", "dev", "platform", "scheduler")))
                .isEqualTo(CROSS_FEATURE_SQL);
    }

    /** By class ({@code feature/Class}), the tables its SQL names that another feature owns. */
    private static Map<String, Set<String>> tablesNamedOutsideTheirOwner(Path scheduler) throws IOException {
        Map<String, Set<String>> found = new java.util.TreeMap<>();
        try (Stream<Path> files = Files.walk(scheduler)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Path relative = scheduler.relativize(f);
                if (relative.getNameCount() < 2) {
                    continue;
                }
                String feature = relative.getName(0).toString();
                Matcher m = SQL_TABLE.matcher(COMMENT.matcher(read(f)).replaceAll(""));
                while (m.find()) {
                    String table = m.group(1).toLowerCase();
                    Set<String> owners = TABLE_OWNERS.get(table);
                    if (owners != null && !owners.contains(feature)) {
                        found.computeIfAbsent(feature + "/" + relative.getFileName().toString().replace(".java", ""),
                                k -> new TreeSet<>()).add(table);
                    }
                }
            }
        }
        return found;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
