package dev.platform.scheduler.demo;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.ClusterRole;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.scheduler.config.ManifestApplication;
import dev.platform.scheduler.identity.ApiTokens;
import dev.platform.scheduler.identity.UserAccountRepository;
import dev.platform.scheduler.identity.Users;
import dev.platform.scheduler.testsupport.BrowserSession;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.security.crypto.password.PasswordEncoder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's logins: an Admin among them, made once per data directory and kept in its file, so a restart points
 * to them instead of printing new passwords; logins that stopped working are made again.
 */
class DemoIdentitiesTest extends PlatformApplicationTest {

    @Autowired
    ManifestParser parser;
    @Autowired
    ManifestApplication manifests;
    @Autowired
    Users users;
    @Autowired
    UserAccountRepository accounts;
    @Autowired
    ApiTokens tokens;
    @Autowired
    PasswordEncoder passwords;
    @Autowired
    Clock clock;

    @TempDir
    Path dataDirectory;

    @Test
    void theFirstStartPrintsAnAdminLoginAndTokenAndLaterStartsPointToTheKeptOnes() throws Exception {
        DemoIdentities.Banner first = identities().ensure();

        assertThat(first.created()).isTrue();
        Path file = dataDirectory.resolve(DemoIdentities.LOGINS_FILE);
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(first.text()).startsWith("\n\n#####").contains(file.toString());
        assertThat(first.text().lines().map(String::strip)).containsAll(Files.readAllLines(file));
        String adminToken = secret(first.text(), "ADMIN_TOKEN");
        String opsToken = secret(first.text(), "TOKEN");
        String seed = SeedManifests.read("seed-kueue-and-hotswap.yaml");

        PlatformClient.Response asOps = api.as(opsToken).postYaml("/api/v1/manifests", seed);
        assertThat(asOps.status()).isEqualTo(403);
        assertThat(asOps.json().get("errors").get(0).get("message").asString()).contains("only an Admin applies");
        assertThat(asOps.json().get("detail").asString()).contains("not yours to apply",
                "POST /api/v1/users with \"clusterRole\": \"Admin\"", "banner lists an Admin login (user admin)");
        assertThat(api.as(adminToken).postYaml("/api/v1/manifests", seed).status()).isEqualTo(200);
        BrowserSession admin = new BrowserSession(port);
        assertThat(admin.logIn("admin", password(first.text(), "admin")).header("Location")).doesNotContain("error");
        assertThat(admin.get("/configuration").status()).isEqualTo(200);

        DemoIdentities.Banner restart = identities().ensure();

        assertThat(restart.created()).isFalse();
        assertThat(restart.text()).contains(file.toString()).doesNotContain("plt_")
                .doesNotContain(password(first.text(), "alice"));
        assertThat(Files.readString(file)).contains(adminToken, opsToken, password(first.text(), "bob"));
        assertThat(new BrowserSession(port).logIn("bob", password(first.text(), "bob")).header("Location"))
                .doesNotContain("error");
    }

    @Test
    void loginsThatNoLongerWorkAreMadeAgainAndPrinted() throws Exception {
        DemoIdentities.Banner first = identities().ensure();
        users.setPassword("alice", "changed-by-alice-herself", new Caller("alice", null, List.of()));

        DemoIdentities.Banner next = identities().ensure();

        assertThat(next.created()).isTrue();
        assertThat(password(next.text(), "alice")).isNotEqualTo(password(first.text(), "alice"));
        assertThat(Files.readString(dataDirectory.resolve(DemoIdentities.LOGINS_FILE)))
                .contains(password(next.text(), "alice"));
        assertThat(accounts.findById("admin").orElseThrow().clusterRole()).isEqualTo(ClusterRole.Admin);
    }

    private DemoIdentities identities() {
        return new DemoIdentities(parser, manifests, users, accounts, tokens, passwords, clock, dataDirectory);
    }

    private static String secret(String banner, String variable) {
        Matcher matcher = Pattern.compile("export " + variable + "=(plt_\\S+)").matcher(banner);
        assertThat(matcher.find()).as(banner).isTrue();
        return matcher.group(1);
    }

    private static String password(String banner, String user) {
        Matcher matcher = Pattern.compile("(?m)^\\s*" + user + "\\s+(\\S+)").matcher(banner);
        assertThat(matcher.find()).as(banner).isTrue();
        return matcher.group(1);
    }
}
