package dev.platform.scheduler.testsupport;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The packaged boot jar run as its own process, as an operator runs it: for tests of start-up,
 * crashes and fail-over. Only for the integration-test phase, once the jar is built.
 */
public final class PlatformProcess implements AutoCloseable {

    /** The packaged boot jar, as {@code java -jar} runs it. */
    public static final Path BOOT_JAR = Path.of("target", "platform-scheduler.jar");
    private static final Path EXTRACTED_JAR = Path.of("target", "platform-scheduler", "platform-scheduler.jar");
    private static final Path SHARED_ARCHIVE = Path.of("target", "platform-scheduler", "platform-scheduler.jsa");
    private static final String DEFAULT_HEAP = "-Xmx512m";
    private static final List<String> DEFAULT_JVM_OPTIONS = List.of(DEFAULT_HEAP);
    public static final String WEBHOOK_PORT = "--platform.agent.webhook.port=";

    private final Process process;
    private final int port;
    private final Path log;

    private PlatformProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /**
     * Starts the scheduler as the README's command does, the boot jar extracted by the build mapping the class data
     * sharing archive of its training run ({@code java -XX:SharedArchiveFile=... -jar
     * target/platform-scheduler/platform-scheduler.jar}: a third less start-up than the boot jar), in {@code workDir}
     * on a free port (and HTTPS on another, unless {@code arguments} set {@code --platform.tls.port}), with the test
     * credentials: the Admin token in {@code PLATFORM_BOOTSTRAP_ADMIN_TOKEN}, and the agent tokens.
     */
    public static PlatformProcess start(Path workDir, String name, List<String> arguments) throws IOException {
        return start(EXTRACTED_JAR, workDir, name,
                List.of(DEFAULT_HEAP, "-XX:SharedArchiveFile=" + SHARED_ARCHIVE.toAbsolutePath()), arguments);
    }

    /** The same from another copy of the scheduler's jar (an extracted layered one, say). */
    public static PlatformProcess start(Path schedulerJar, Path workDir, String name, List<String> arguments)
            throws IOException {
        return start(schedulerJar, workDir, name, DEFAULT_JVM_OPTIONS, arguments);
    }

    /** The scheduler's jar with JVM options of its own (heap size, flight recording) instead of {@value #DEFAULT_HEAP}. */
    public static PlatformProcess start(Path schedulerJar, Path workDir, String name, List<String> jvmOptions,
                                        List<String> arguments) throws IOException {
        // the HTTPS connector on a free port, unless the test names one: two schedulers of one test (or of two test
        // runs) never share 8443. A second --platform.tls.port would not override the first but join it ("0,8443").
        List<String> withAgentTokens = new ArrayList<>();
        if (arguments.stream().noneMatch(a -> a.startsWith("--platform.tls.port="))) {
            withAgentTokens.add("--platform.tls.port=0");
        }
        withAgentTokens.addAll(arguments);
        TestIdentity.AGENT_CLUSTERS.forEach(c ->
                withAgentTokens.add("--platform.agents.tokens." + c + "=" + TestIdentity.agentToken(c)));
        return start(schedulerJar, workDir, name, jvmOptions, withAgentTokens,
                Map.of("PLATFORM_BOOTSTRAP_ADMIN_TOKEN", TestIdentity.ADMIN_TOKEN));
    }

    /** Starts the simulated agent's boot jar, built by the platform-agent module before this one. */
    public static PlatformProcess startSimulatedAgent(Path workDir, String schedulerUrl, String cluster)
            throws IOException {
        return startSimulatedAgent(workDir, "agent-" + cluster, schedulerUrl, cluster, List.of());
    }

    /**
     * The same with its log named after {@code name} and more agent settings (its FULL report interval, say). Its
     * admission webhook listens on a free port unless {@code settings} name one: two agents of one test (or of two
     * test runs) never share 9443.
     */
    public static PlatformProcess startSimulatedAgent(Path workDir, String name, String schedulerUrl, String cluster,
                                                      List<String> settings) throws IOException {
        List<String> arguments = new ArrayList<>(List.of("--platform.agent.mode=simulated",
                "--platform.agent.scheduler-url=" + schedulerUrl, "--platform.agent.cluster-name=" + cluster,
                "--platform.agent.token=" + TestIdentity.agentToken(cluster), "--platform.agent.agent-id=sim-agent"));
        if (settings.stream().noneMatch(s -> s.startsWith(WEBHOOK_PORT))) {
            arguments.add(WEBHOOK_PORT + freePort());
        }
        arguments.addAll(settings);
        return start(Path.of("..", "platform-agent", "target", "platform-agent.jar"), workDir, name,
                DEFAULT_JVM_OPTIONS, arguments, Map.of());
    }

    private static PlatformProcess start(Path jarPath, Path workDir, String name, List<String> jvmOptions,
                                         List<String> arguments, Map<String, String> environment) throws IOException {
        Path jar = jarPath.toAbsolutePath().normalize();
        assertThat(jar).exists();
        int port = freePort();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString(), "--server.port=" + port));
        command.addAll(arguments);
        Files.createDirectories(workDir);
        Path log = workDir.resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        Process process = builder.start();
        return new PlatformProcess(process, port, log);
    }

    /** Arguments pointing a process at a database of the shared test server. */
    public static List<String> database(TestDatabase.Connection db) {
        return List.of("--spring.datasource.url=" + db.url(), "--spring.datasource.username=" + db.username(),
                "--spring.datasource.password=" + db.password());
    }

    public PlatformProcess awaitUp() {
        return awaitUp(Duration.ofSeconds(180));
    }

    /** The same with more patience: a benchmark's process may start on a machine busy with other builds. */
    public PlatformProcess awaitUp(Duration patience) {
        PlatformClient api = client();
        await().atMost(patience).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .failFast("the platform process exited; see " + log, () -> !process.isAlive())
                .until(() -> api.get("/actuator/health").json().get("status").asString().equals("UP"));
        return this;
    }

    public PlatformClient client() {
        return new PlatformClient(port);
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path log() {
        return log;
    }

    /** SIGSTOP: the process stays alive, sockets open, and does nothing until {@link #resume()}. */
    public void pause() throws IOException, InterruptedException {
        signal("-STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() throws IOException, InterruptedException {
        signal("-CONT");
    }

    private void signal(String signal) throws IOException, InterruptedException {
        int exit = new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start().waitFor();
        if (exit != 0) {
            throw new IllegalStateException("kill " + signal + " " + process.pid() + " exited with " + exit);
        }
    }

    /** SIGKILL of this process alone (not its children): no shutdown hook, no graceful stop, as a crash or an OOM kill. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Waits for the process to end by itself, and returns its exit code. */
    public int awaitExit(Duration patience) throws InterruptedException {
        assertThat(process.waitFor(patience.toMillis(), TimeUnit.MILLISECONDS))
                .as("the platform process ended within %s; see %s", patience, log).isTrue();
        return process.exitValue();
    }

    /** SIGTERM, without waiting: the graceful stop begins ({@link #awaitExit} for its end). */
    public void terminate() throws IOException, InterruptedException {
        signal("-TERM");
    }

    /** SIGTERM and wait for the graceful stop. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }

    /** A port no process listens on now, for a test that must know a port before its process starts. */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
