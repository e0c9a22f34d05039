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
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dependency rules of the modules and packages (docs/architecture.md), and the one writer of the
 * workload table, enforced by the build rather than by review.
 */
class ArchitectureTest {

    private static JavaClasses production;

    @BeforeAll
    static void importClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
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
                        "dev.platform.scheduler.console..")
                .and().haveSimpleNameNotEndingWith("Controller")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework.http..",
                        "org.springframework.web..")
                .because("services refuse with a Refusal of a domain kind; the web layer alone maps it to a status");
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

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
