package dev.platform.agent;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The agent ships alone into every cluster: it may use the API module, nothing of the scheduler or console. */
class ArchitectureTest {

    private final JavaClasses agent = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.platform.agent");

    @Test
    void theAgentDependsOnlyOnTheApiModule() {
        noClasses().that().resideInAPackage("dev.platform.agent..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.platform.scheduler..", "dev.platform.web..")
                .check(agent);
    }

    @Test
    void healthJudgementIsPure() {
        noClasses().that().resideInAPackage("dev.platform.agent.health..")
                .should().dependOnClassesThat().resideInAnyPackage("io.kubernetes..", "org.springframework..", "java.net..")
                .check(agent);
    }
}
