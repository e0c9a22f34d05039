package dev.platform.scheduler.testsupport;

import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.List;

/**
 * The credentials every test application and process starts with: an Admin API token from
 * {@code PLATFORM_BOOTSTRAP_ADMIN_TOKEN}, and one agent token per cluster the tests' agents report for.
 */
public final class TestIdentity {

    /** An Admin API token; {@link PlatformClient} presents it unless told otherwise. */
    public static final String ADMIN_TOKEN = "test-admin-token-0123456789";

    /** The clusters whose agents the tests run or imitate. */
    public static final List<String> AGENT_CLUSTERS = List.of("prod-1", "prod-2", "sim", "kube");

    private TestIdentity() {
    }

    /** The agent token of one of {@link #AGENT_CLUSTERS}, valid for that cluster only. */
    public static String agentToken(String cluster) {
        if (!AGENT_CLUSTERS.contains(cluster)) {
            throw new IllegalArgumentException("no test agent token for cluster " + cluster + "; add it to AGENT_CLUSTERS");
        }
        return "test-agent-token-of-" + cluster;
    }

    /**
     * Gives a test application context these credentials, and makes it trust the test JVM's identity
     * provider ({@link TestIdentityProvider}) for bearer JWTs and console logins.
     */
    public static final class Initializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {
        @Override
        public void initialize(ConfigurableApplicationContext context) {
            TestPropertyValues.of(settings()).and(TestIdentityProvider.get().settings()).applyTo(context);
        }
    }

    /** The settings that give a scheduler these credentials, as {@code name=value} pairs. */
    public static List<String> settings() {
        List<String> settings = new java.util.ArrayList<>();
        settings.add("PLATFORM_BOOTSTRAP_ADMIN_TOKEN=" + ADMIN_TOKEN);
        AGENT_CLUSTERS.forEach(c -> settings.add("platform.agents.tokens." + c + "=" + agentToken(c)));
        return settings;
    }
}
