package dev.platform.scheduler.identity;

import dev.platform.scheduler.testsupport.BrowserSession;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without PLATFORM_BOOTSTRAP_ADMIN_TOKEN, the first start creates user admin with a password generated once;
 * with the demo on, the demo's own logins are the only banner.
 */
class FirstAdminTest extends PlatformApplicationTest {

    @Autowired
    UserAccountRepository users;
    @Autowired
    ApiTokens tokens;
    @Autowired
    PasswordEncoder passwords;
    @Autowired
    TransactionTemplate transactions;
    @Autowired
    Clock clock;
    @Autowired
    AdminBootstrap configured;

    @Test
    void noAdminAndNoTokenGivesAdminAGeneratedPasswordOnceAndNeverAgain() {
        AdminBootstrap withoutToken = new AdminBootstrap(users, tokens, passwords, transactions, jdbc, clock, "", false);
        try {
            jdbc.sql("DELETE FROM app_user").update();

            Optional<String> password = withoutToken.ensureAdmin();

            assertThat(password).hasValueSatisfying(p -> assertThat(p).hasSizeGreaterThanOrEqualTo(24));
            assertThat(users.findById("admin")).hasValueSatisfying(u -> assertThat(u.clusterRole()).hasToString("Admin"));
            BrowserSession browser = new BrowserSession(port);
            assertThat(browser.logIn("admin", password.orElseThrow()).header("Location")).doesNotContain("error");
            assertThat(browser.get("/configuration").status()).isEqualTo(200);
            assertThat(withoutToken.ensureAdmin()).as("an Admin exists now: nothing is generated again").isEmpty();
        } finally {
            configured.ensureAdmin();
        }
    }

    @Test
    void theDemoPrintsItsOwnLoginsAndCreatesNoAdminWithAGeneratedPassword() {
        AdminBootstrap demo = new AdminBootstrap(users, tokens, passwords, transactions, jdbc, clock, "", true);
        try {
            jdbc.sql("DELETE FROM app_user").update();

            assertThat(demo.ensureAdmin()).isEmpty();
            assertThat(users.findById("admin")).isEmpty();
        } finally {
            configured.ensureAdmin();
        }
    }
}
