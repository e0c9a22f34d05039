package dev.platform.scheduler.kubernetes;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real kubectl binary of the machine image's {@code kubectl} package ({@code kubectl.1.27} ... {@code kubectl.1.33},
 * as {@code dpkg -L kubectl} lists them) with a kubeconfig for the platform: server {@code https://...:port/k8s},
 * the platform's certificate authority and a bearer token.
 */
record Kubectl(Path binary, Path kubeconfig) {

    static final Path KUBECTLS = Path.of("/usr/lib/google-cloud-sdk/bin");

    static Path binary(String version) {
        return KUBECTLS.resolve("kubectl." + version);
    }

    static Kubectl of(String version, Path dir, String server, String authorityPem, String token, String namespace)
            throws Exception {
        Path kubeconfig = Files.writeString(dir.resolve("kubeconfig-" + version + "-" + Math.abs(token.hashCode())),
                """
                apiVersion: v1
                kind: Config
                clusters:
                - name: platform
                  cluster:
                    server: %s
                    certificate-authority-data: %s
                users:
                - name: user
                  user:
                    token: %s
                contexts:
                - name: platform
                  context:
                    cluster: platform
                    user: user
                    namespace: %s
                current-context: platform
                """.formatted(server, Base64.getEncoder().encodeToString(authorityPem.getBytes(StandardCharsets.US_ASCII)),
                        token, namespace));
        return new Kubectl(binary(version), kubeconfig);
    }

    record Run(int exit, String output) {
    }

    /** Runs kubectl with these arguments, with no proxy settings of the machine, and waits up to a minute. */
    Run run(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--kubeconfig=" + kubeconfig));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.toLowerCase().endsWith("_proxy"));
        builder.environment().put("KUBECACHEDIR", kubeconfig.getParent().resolve("cache-" + binary.getFileName())
                .toString());
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("kubectl %s ended", List.of(arguments)).isTrue();
        return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    /** Runs kubectl and expects it to succeed; its output. */
    String ok(String... arguments) throws Exception {
        Run run = run(arguments);
        assertThat(run.exit()).as("kubectl %s said:%n%s", String.join(" ", arguments), run.output()).isZero();
        return run.output();
    }

    /** Starts kubectl in the background (a watch), its output going to {@code output}. */
    Process start(Path output, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--kubeconfig=" + kubeconfig));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().keySet().removeIf(name -> name.toLowerCase().endsWith("_proxy"));
        return builder.start();
    }
}
