package dev.platform.scheduler.demo;

import dev.platform.api.manifest.ManifestParser;
import dev.platform.scheduler.config.ApplyResult;
import dev.platform.scheduler.config.ManifestApplication;
import dev.platform.scheduler.identity.ApiTokens;
import dev.platform.scheduler.identity.UserAccountRepository;
import dev.platform.scheduler.identity.Users;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * The README demo ({@code platform.demo.enabled=true}, never on by default): applies the seed's
 * Kueue + Hotswap example verbatim at start (priority classes, flavor, ClusterQueue, LocalQueue and
 * the two JobSets), through the same path as {@code POST /api/v1/manifests}. Applying is
 * idempotent, so a restart on the same data reports the objects unchanged. Then the demo's people
 * ({@link DemoIdentities}), whose logins it prints at the first start on a data directory and points to later.
 */
@Component
@ConditionalOnBooleanProperty("platform.demo.enabled")
class DemoLoader implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(DemoLoader.class);
    static final String SEED_CONFIGURATION = "/seed-manifests/seed-kueue-and-hotswap.yaml";

    private final ManifestParser parser;
    private final ManifestApplication manifests;
    private final DemoIdentities identities;

    DemoLoader(ManifestParser parser, ManifestApplication manifests, Users users, UserAccountRepository accounts,
               ApiTokens tokens, PasswordEncoder passwords, Clock clock,
               @Value("${platform.embedded-db.data-dir:./.platform-data}") Path dataDirectory) {
        this.parser = parser;
        this.manifests = manifests;
        this.identities = new DemoIdentities(parser, manifests, users, accounts, tokens, passwords, clock, dataDirectory);
    }

    @Override
    public void run(ApplicationArguments args) {
        List<ApplyResult> results = manifests.apply(
                parser.parse(read(SEED_CONFIGURATION), ManifestParser.Format.YAML), false, "demo");
        results.forEach(r -> log.info("demo: {} {} {}{}", r.kind(), r.name(), r.action(),
                r.warnings().isEmpty() ? "" : " (warnings: " + String.join("; ", r.warnings()) + ")"));
        log.warn(identities.ensure().text());
    }

    private static byte[] read(String resource) {
        try (InputStream in = DemoLoader.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("demo manifest missing from the classpath: " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
