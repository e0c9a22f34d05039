package dev.platform.scheduler.performance;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.platform.scheduler.testsupport.PlatformProcess;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.awaitility.Awaitility.await;

/**
 * The packaged scheduler jar as its own process, as an operator runs it (the README's command: the extracted jar and
 * the class data sharing archive of the build's training run), on a database of its own on the run's
 * PostgreSQL server: {@value #HEAP} (the heap goal), the per-caller submission rate switched off
 * ({@code platform.security.submissions.per-second=0}) so the load is not refused, every other setting at its
 * default. With {@code -Dplatform.performance.jfr=true} it records a JFR profile into its work directory, and starts
 * without the archive (docs/operations.md: the two together crash OpenJDK 17).
 */
final class SchedulerProcessHost implements SchedulerHost, AutoCloseable {

    static final String HEAP = "-Xmx1g";
    /** The extracted jar the README starts, and the class data sharing archive of the build's training run. */
    private static final Path JAR = Path.of("target", "platform-scheduler", "platform-scheduler.jar");
    private static final Path SHARED_ARCHIVE = Path.of("target", "platform-scheduler", "platform-scheduler.jsa");
    private static final boolean RECORDING = Boolean.getBoolean("platform.performance.jfr");
    private static final Pattern LOG_INSTANT = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\dT\\S+Z)\\s");
    private static final Pattern HEAP_USED = Pattern.compile("heap\\s+total \\d+K, used (\\d+)K");

    private final BenchmarkPostgres server;
    private final String jdbcUrl;
    private final Path workDir;
    private final List<String> arguments;
    private final HikariDataSource dataSource;
    private final JdbcClient jdbc;
    private PlatformProcess process;
    private int starts;

    SchedulerProcessHost(BenchmarkPostgres server, String database, Path workDir, List<String> extraArguments) {
        this.server = server;
        this.jdbcUrl = server.createDatabase(database);
        this.workDir = workDir;
        this.arguments = new ArrayList<>(List.of("--spring.datasource.url=" + jdbcUrl,
                "--spring.datasource.username=postgres", "--spring.datasource.password=postgres",
                "--platform.security.submissions.per-second=0"));
        this.arguments.addAll(extraArguments);
        start();
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername("postgres");
        config.setPassword("postgres");
        config.setMaximumPoolSize(3);
        config.setPoolName("benchmark-reader");
        dataSource = new HikariDataSource(config);
        jdbc = JdbcClient.create(dataSource);
    }

    private Instant start() {
        List<String> jvm = new ArrayList<>(List.of(HEAP));
        String name = "scheduler-" + (++starts);
        if (RECORDING) {
            // OpenJDK 17 crashes loading a class from an application archive while a flight recording runs.
            jvm.add("-XX:StartFlightRecording=filename=" + workDir.toAbsolutePath().resolve(name + ".jfr")
                    + ",settings=profile,dumponexit=true");
        } else {
            jvm.add("-XX:SharedArchiveFile=" + SHARED_ARCHIVE.toAbsolutePath());
        }
        Instant launched = Instant.now();
        try {
            process = PlatformProcess.start(JAR, workDir, name, jvm, arguments);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        process.awaitUp(Duration.ofMinutes(10));
        return launched;
    }

    @Override
    public int port() {
        return process.port();
    }

    @Override
    public JdbcClient jdbc() {
        return jdbc;
    }

    @Override
    public PostgresServer postgres() {
        return server.server();
    }

    @Override
    public String description() {
        return "the scheduler jar as its own process (" + HEAP + ", "
                + (RECORDING ? "a flight recording" : "the build's class data sharing archive") + ", defaults but for"
                + " platform.security.submissions.per-second=0) on " + server.server().version();
    }

    @Override
    public Startup restart(Runnable whileStopped) {
        stopProcess();
        whileStopped.run();
        Instant launched = start();
        Path log = process.log();
        Instant leading = await().atMost(Duration.ofMinutes(5))
                .until(() -> logged(log, "is the scheduling leader", launched), i -> i != null);
        Instant rebuilt = await().atMost(Duration.ofMinutes(5))
                .until(() -> logged(log, "scheduler state rebuilt", launched), i -> i != null);
        return new Startup(Duration.between(launched, rebuilt), Duration.between(leading, rebuilt));
    }

    /**
     * When the process last logged a line containing {@code text} at or after {@code since}, or null. The log is
     * appended to, so it may hold the lines of an earlier run in the same work directory.
     */
    static Instant logged(Path log, String text, Instant since) throws IOException {
        Instant last = null;
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            Matcher m = LOG_INSTANT.matcher(line);
            if (line.contains(text) && m.find() && !Instant.parse(m.group(1)).isBefore(since)) {
                last = Instant.parse(m.group(1));
            }
        }
        return last;
    }

    @Override
    public OptionalLong liveHeapBytes() {
        jcmd("GC.run");
        Matcher used = HEAP_USED.matcher(jcmd("GC.heap_info"));
        return used.find() ? OptionalLong.of(Long.parseLong(used.group(1)) * 1024) : OptionalLong.empty();
    }

    private String jcmd(String command) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), command)
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
                throw new IllegalStateException("jcmd " + command + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void stopProcess() {
        try {
            process.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        stopProcess();
        dataSource.close();
    }
}
