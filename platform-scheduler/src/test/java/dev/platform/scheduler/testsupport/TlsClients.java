package dev.platform.scheduler.testsupport;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The clients users reach the HTTPS port with, as tests drive them: kubectl binaries and Debian's own python3 (not
 * the python first on PATH here) when the machine has them, and Java trusting one certificate authority only.
 */
public final class TlsClients {

    /** Where the machine image's kubectl package puts {@code kubectl.1.27} ... {@code kubectl.1.33}. */
    public static final Path KUBECTLS = Path.of("/usr/lib/google-cloud-sdk/bin");
    public static final Path DEBIAN_PYTHON = Path.of("/usr/bin/python3");

    private TlsClients() {
    }

    public static Path kubectl(String version) {
        return KUBECTLS.resolve("kubectl." + version);
    }

    /** TLS that trusts the given PEM authority and nothing else (not the JDK's public authorities). */
    public static SSLContext trusting(String authorityPem) throws GeneralSecurityException, java.io.IOException {
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        trusted.setCertificateEntry("platform", CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(authorityPem.getBytes(StandardCharsets.US_ASCII))));
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    /** What a client process printed (standard output and error together) and how it ended. */
    public record Run(int exit, String output) {
    }

    /** Runs a client without the machine's proxy settings: it talks to this host only. */
    public static Run run(List<String> command) throws java.io.IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.toLowerCase(Locale.ROOT).endsWith("_proxy"));
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s ended", command.get(0)).isTrue();
        return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }
}
