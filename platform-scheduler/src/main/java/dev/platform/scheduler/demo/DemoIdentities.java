package dev.platform.scheduler.demo;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.ClusterRole;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.scheduler.config.ManifestApplication;
import dev.platform.scheduler.identity.AdminBootstrap;
import dev.platform.scheduler.identity.ApiTokens;
import dev.platform.scheduler.identity.UserAccount;
import dev.platform.scheduler.identity.UserAccountRepository;
import dev.platform.scheduler.identity.Users;
import org.springframework.security.crypto.password.PasswordEncoder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The demo's people: team {@value #TEAM} owning the seed's namespace {@code default}, with alice (TeamLead) and bob
 * (Engineer), ops (Ops) and admin (Admin, who applies configuration: the demo is a single-user trial on a laptop).
 * Their passwords and two API tokens (ops and admin) are generated at the first start on a data directory and kept
 * in its file {@value #LOGINS_FILE} (owner-only), so the banner with them is printed once; a later start points to
 * that file. Logins that no longer work (a password changed, a token expired or revoked, a database emptied) are
 * generated anew and printed again. Nothing is a default password.
 */
final class DemoIdentities {

    static final String TEAM = "ml-research";
    static final String LOGINS_FILE = "demo-logins.txt";
    private static final Duration TOKEN_LIFETIME = Duration.ofDays(365);
    private static final String FRAME = "#".repeat(100);
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
            new Person("bob", null, "Engineer of team " + TEAM + ": submits and cancels in namespace default"),
            new Person("ops", ClusterRole.Ops, "Ops: reads everything, cancels any workload"),
            new Person("admin", ClusterRole.Admin, "Admin: applies configuration, manages users and teams"));

    /** The token lines of the file: which variable, whose token, what it is for. */
    private record TokenLine(String variable, String user, String what) {
    }

    private static final List<TokenLine> TOKENS = List.of(
            new TokenLine("TOKEN", "ops", "ops: reads every queue, workload and audit"),
            new TokenLine("ADMIN_TOKEN", "admin", "admin: POST /api/v1/manifests with configuration kinds"));

    /** What a start prints, and whether the logins were made now. */
    record Banner(String text, boolean created) {
    }

    private final ManifestParser parser;
    private final ManifestApplication manifests;
    private final Users users;
    private final UserAccountRepository accounts;
    private final ApiTokens tokens;
    private final PasswordEncoder passwords;
    private final Clock clock;
    private final Path loginsFile;

    DemoIdentities(ManifestParser parser, ManifestApplication manifests, Users users, UserAccountRepository accounts,
                   ApiTokens tokens, PasswordEncoder passwords, Clock clock, Path dataDirectory) {
        this.parser = parser;
        this.manifests = manifests;
        this.users = users;
        this.accounts = accounts;
        this.tokens = tokens;
        this.passwords = passwords;
        this.clock = clock;
        this.loginsFile = dataDirectory.toAbsolutePath().normalize().resolve(LOGINS_FILE);
    }

    /** Makes sure the demo's team and people exist with the logins of the data directory's file. */
    Banner ensure() {
        manifests.apply(parser.parse(TEAM_MANIFEST.getBytes(StandardCharsets.UTF_8), ManifestParser.Format.YAML),
                false, DEMO.name());
        if (readKept().filter(this::stillWork).isPresent()) {
            return new Banner(framed(List.of(
                    "Demo logins: unchanged since the first start on this data directory, in",
                    "    " + loginsFile,
                    "(cat it for the console's users and passwords and the export TOKEN / ADMIN_TOKEN lines).")), false);
        }
        String file = create();
        write(file);
        return new Banner(framed(List.of(("Demo logins, generated once for this data directory and kept in "
                + loginsFile + " (owner-only)\n" + file).split("\n"))), true);
    }

    private String create() {
        StringBuilder file = new StringBuilder("# console at http://localhost:8080/ (created "
                + clock.instant().truncatedTo(ChronoUnit.SECONDS) + ")\n");
        for (Person person : PEOPLE) {
            String password = AdminBootstrap.randomPassword();
            if (accounts.existsById(person.name())) {
                users.setPassword(person.name(), password, DEMO);
            } else {
                users.create(person.name(), password, person.clusterRole(), DEMO);
            }
            file.append(String.format("%-6s %s   %s%n", person.name(), password, person.what()));
        }
        Instant until = clock.instant().plus(TOKEN_LIFETIME).truncatedTo(ChronoUnit.DAYS);
        file.append("# API tokens (valid until ").append(until).append("), to paste into your shell:\n");
        for (TokenLine line : TOKENS) {
            String secret = tokens.issue(line.user(), "demo", TOKEN_LIFETIME, DEMO).secret();
            file.append(String.format("export %s=%s   # %s%n", line.variable(), secret, line.what()));
        }
        file.append("curl -H \"Authorization: Bearer $TOKEN\" localhost:8080/api/v1/clusterqueues/tpu-training-cq\n");
        return file.toString();
    }

    /** The kept passwords by user and tokens by variable, if the file is there. */
    private Optional<Map<String, String>> readKept() {
        if (!Files.isRegularFile(loginsFile)) {
            return Optional.empty();
        }
        Map<String, String> kept = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(loginsFile)) {
                String[] words = line.strip().split("\\s+");
                if (words.length >= 2 && words[0].equals("export") && words[1].contains("=")) {
                    kept.put(words[1].substring(0, words[1].indexOf('=')), words[1].substring(words[1].indexOf('=') + 1));
                } else if (words.length >= 2 && !words[0].startsWith("#")) {
                    kept.put(words[0], words[1]);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the demo's logins in " + loginsFile, e);
        }
        return Optional.of(kept);
    }

    private boolean stillWork(Map<String, String> kept) {
        boolean logins = PEOPLE.stream().allMatch(person -> kept.containsKey(person.name())
                && accounts.findById(person.name()).map(UserAccount::passwordHash)
                .filter(hash -> passwords.matches(kept.get(person.name()), hash)).isPresent());
        return logins && TOKENS.stream().allMatch(line -> kept.containsKey(line.variable())
                && tokens.authenticate(kept.get(line.variable())).filter(c -> c.name().equals(line.user())).isPresent());
    }

    /** Written beside the file and moved over it, readable by the owner only: a crash leaves the old or the new. */
    private void write(String content) {
        try {
            Files.createDirectories(loginsFile.getParent());
            Path next = loginsFile.resolveSibling(LOGINS_FILE + ".next");
            Files.deleteIfExists(next);
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                Files.createFile(next, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            Files.writeString(next, content);
            Files.move(next, loginsFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the demo's logins in " + loginsFile, e);
        }
    }

    /** Set apart from the log lines around it: a blank line and a frame above and below. */
    private static String framed(List<String> lines) {
        StringBuilder text = new StringBuilder("\n\n").append(FRAME).append('\n');
        lines.forEach(line -> text.append("  ").append(line).append('\n'));
        return text.append(FRAME).append("\n").toString();
    }
}
