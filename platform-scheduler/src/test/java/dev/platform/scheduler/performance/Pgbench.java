package dev.platform.scheduler.performance;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * PostgreSQL's own benchmark on the server the scheduler uses: the built-in {@code simple-update} script (one
 * row updated, read and one history row inserted per transaction, each committed durably), as many clients as the
 * benchmark it is compared with. What this server can commit is the ceiling every durable figure is read against.
 * Optional: without a {@code pgbench} on the PATH (or at {@code -Dplatform.performance.pgbench}) it is skipped.
 */
final class Pgbench {

    private static final Pattern TPS = Pattern.compile("tps = ([0-9.]+) \\(without initial connection time\\)");
    private static final Pattern LATENCY = Pattern.compile("latency average = ([0-9.]+) ms");
    private static final String DATABASE = "pgbench";

    /** One run: transactions per second over {@code duration} with {@code clients} connections. */
    record Result(int clients, Duration duration, double tps, double latencyAverageMillis, String command) {
    }

    private Pgbench() {
    }

    static Optional<Path> executable() {
        String configured = System.getProperty("platform.performance.pgbench");
        if (configured != null) {
            return Optional.of(Path.of(configured)).filter(Files::isExecutable);
        }
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .map(dir -> Path.of(dir, "pgbench")).filter(Files::isExecutable).findFirst();
    }

    /** Initialises pgbench's tables at {@code scale} in a database of their own on the server, once per server. */
    static void initialise(Path pgbench, SchedulerHost.PostgresServer server, int scale) {
        String url = "jdbc:postgresql://" + server.host() + ":" + server.port() + "/postgres";
        try (var connection = DriverManager.getConnection(url, server.user(), server.password());
             Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
            statement.execute("CREATE DATABASE " + DATABASE);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create the pgbench database", e);
        }
        run(pgbench, server, List.of("-i", "-q", "-s", Integer.toString(scale)));
    }

    static Result simpleUpdate(Path pgbench, SchedulerHost.PostgresServer server, int clients, Duration duration) {
        int threads = Math.min(clients, Runtime.getRuntime().availableProcessors());
        List<String> arguments = List.of("-b", "simple-update", "-n", "-c", Integer.toString(clients), "-j",
                Integer.toString(threads), "-T", Long.toString(duration.toSeconds()));
        String out = run(pgbench, server, arguments);
        Matcher tps = TPS.matcher(out);
        Matcher latency = LATENCY.matcher(out);
        if (!tps.find() || !latency.find()) {
            throw new IllegalStateException("unexpected pgbench output:\n" + out);
        }
        return new Result(clients, duration, Double.parseDouble(tps.group(1)), Double.parseDouble(latency.group(1)),
                "pgbench " + String.join(" ", arguments));
    }

    private static String run(Path pgbench, SchedulerHost.PostgresServer server, List<String> arguments) {
        List<String> command = new ArrayList<>(List.of(pgbench.toString(), "-h", server.host(), "-p",
                Integer.toString(server.port()), "-U", server.user()));
        command.addAll(arguments);
        command.add(DATABASE);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("PGPASSWORD", server.password());
        try {
            Process process = builder.start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed:\n" + out);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
