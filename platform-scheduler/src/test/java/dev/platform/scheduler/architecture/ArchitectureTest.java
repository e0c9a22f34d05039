package dev.platform.scheduler.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** The dependency rules of design §3, enforced by the build rather than by review. */
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
                .resideInAnyPackage("dev.platform.scheduler.core..", "java..")
                .because("the core works on snapshots and must be testable and benchmarkable without any framework");
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
}
