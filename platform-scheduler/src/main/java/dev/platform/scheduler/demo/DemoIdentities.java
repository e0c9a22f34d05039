package dev.platform.scheduler.demo;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.ClusterRole;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.scheduler.config.ManifestApplication;
import dev.platform.scheduler.identity.AdminBootstrap;
import dev.platform.scheduler.identity.ApiTokens;
import dev.platform.scheduler.identity.UserAccountRepository;
import dev.platform.scheduler.identity.Users;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * The demo's people: team {@value #TEAM} owning the seed's namespace {@code default}, with alice
 * (TeamLead) and bob (Engineer), and ops (Ops). Each start gives them fresh generated passwords and
 * ops a fresh API token, printed once, so a newcomer can log in and curl right away; nothing is a
 * default password.
 */
final class DemoIdentities {

    static final String TEAM = "ml-research";
    private static final Caller DEMO = new Caller("demo", ClusterRole.Admin, List.of());
    private static final String TEAM_MANIFEST = """
            apiVersion: platform.dev/v1
            kind: Team
            metadata:
              name: %s
            spec:
              namespaces: [default]
              members:
              - {user: alice, role: TeamLead}
              - {user: bob, role: Engineer}
            """.formatted(TEAM);

    private record Person(String name, ClusterRole clusterRole, String what) {
    }

    private static final List<Person> PEOPLE = List.of(
            new Person("alice", null, "TeamLead of team " + TEAM + " (namespace default)"),
            new Person("bob", null, "Engineer of team " + TEAM),
            new Person("ops", ClusterRole.Ops, "Ops: reads everything, cancels any workload"));

    private final ManifestParser parser;
    private final ManifestApplication manifests;
    private final Users users;
    private final UserAccountRepository accounts;
    private final ApiTokens tokens;

    DemoIdentities(ManifestParser parser, ManifestApplication manifests, Users users, UserAccountRepository accounts,
                   ApiTokens tokens) {
        this.parser = parser;
        this.manifests = manifests;
        this.users = users;
        this.accounts = accounts;
        this.tokens = tokens;
    }

    /** @return what to print: the logins and a ready-to-paste token line */
    String createOrRefresh() {
        manifests.apply(parser.parse(TEAM_MANIFEST.getBytes(StandardCharsets.UTF_8), ManifestParser.Format.YAML),
                false, DEMO.name());
        StringBuilder banner = new StringBuilder("\n=== Demo logins for the console at http://localhost:8080/"
                + " (passwords generated now, shown once) ===\n");
        for (Person person : PEOPLE) {
            String password = AdminBootstrap.randomPassword();
            if (accounts.existsById(person.name())) {
                users.setPassword(person.name(), password, DEMO);
            } else {
                users.create(person.name(), password, person.clusterRole(), DEMO);
            }
            banner.append(String.format("  %-6s %s   %s%n", person.name(), password, person.what()));
        }
        String token = tokens.issue("ops", "demo", Duration.ofDays(1), DEMO).secret();
        banner.append("=== API as ops (valid for a day): ===\n")
                .append("  export TOKEN=").append(token).append('\n')
                .append("  curl -H \"Authorization: Bearer $TOKEN\" localhost:8080/api/v1/clusterqueues/tpu-training-cq\n");
        return banner.toString();
    }
}
