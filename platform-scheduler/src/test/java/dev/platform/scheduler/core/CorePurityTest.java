package dev.platform.scheduler.core;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

/** The core is pure Java: it depends on the JDK and on itself only (design.md §3). */
class CorePurityTest {

    @Test
    void coreDependsOnTheJdkOnly() {
        JavaClasses core = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.platform.scheduler.core");
        classes().that().resideInAPackage("dev.platform.scheduler.core..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.platform.scheduler.core..", "java..")
                .check(core);
    }
}
