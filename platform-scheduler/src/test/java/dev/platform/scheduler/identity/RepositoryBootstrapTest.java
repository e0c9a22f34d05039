package dev.platform.scheduler.identity;

import dev.platform.scheduler.testsupport.PlatformIntegrationTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.orm.jpa.LocalContainerEntityManagerFactoryBean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hibernate's EntityManagerFactory is built on a background thread while the rest of the context starts (Spring
 * Data's deferred bootstrap), and the repositories built on it answer once the application is up.
 */
@PlatformIntegrationTest
class RepositoryBootstrapTest {

    @Autowired
    ApplicationContext context;

    @Autowired
    UserAccountRepository users;

    @Test
    void theEntityManagerFactoryIsBuiltInTheBackgroundAndTheRepositoriesAnswer() {
        LocalContainerEntityManagerFactoryBean factory = context.getBean("&entityManagerFactory",
                LocalContainerEntityManagerFactoryBean.class);

        assertThat(factory.getBootstrapExecutor()).as("built off the main thread").isNotNull();
        assertThat(users.findAllByOrderByName()).as("the test identity's users").isNotEmpty();
    }
}
