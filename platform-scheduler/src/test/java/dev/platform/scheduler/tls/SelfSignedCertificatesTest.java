package dev.platform.scheduler.tls;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The self-signed authority and serving certificate: generated once, reused, issued again only when they must be. */
class SelfSignedCertificatesTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final Set<String> NAMES = Set.of("localhost", "127.0.0.1", "::1", "scheduler.example.com");

    @TempDir
    Path dataDir;

    @Test
    void aFirstStartGeneratesAnAuthorityAndACertificateItSignsForEveryName() throws Exception {
        SelfSignedCertificates.Issued issued = at(NOW).ensure(NAMES);

        X509Certificate authority = certificate(SelfSignedCertificates.AUTHORITY_CERTIFICATE);
        X509Certificate serving = SelfSignedCertificates.readCertificate(issued.certificate());
        serving.verify(authority.getPublicKey());
        assertThat(authority.getBasicConstraints()).isZero();
        assertThat(serving.getBasicConstraints()).isEqualTo(-1);
        assertThat(serving.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
        assertThat(serving.getSubjectAlternativeNames()).containsExactlyInAnyOrder(List.of(2, "localhost"),
                List.of(7, "127.0.0.1"), List.of(7, "0:0:0:0:0:0:0:1"), List.of(2, "scheduler.example.com"));
        assertThat(serving.getNotBefore().toInstant()).isBefore(NOW);
        assertThat(serving.getNotAfter().toInstant()).isEqualTo(NOW.plus(SelfSignedCertificates.SERVING_LIFETIME));
        assertThat(issued.authorityPem()).startsWith("-----BEGIN CERTIFICATE-----")
                .isEqualTo(Files.readString(folder().resolve(SelfSignedCertificates.AUTHORITY_CERTIFICATE)));
        assertThat(Files.readString(issued.privateKey())).startsWith("-----BEGIN PRIVATE KEY-----");
    }

    @Test
    void theKeysAreReadableByTheirOwnerOnly() throws Exception {
        at(NOW).ensure(NAMES);

        for (String key : List.of(SelfSignedCertificates.AUTHORITY_KEY, SelfSignedCertificates.SERVING_KEY)) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder().resolve(key))))
                    .as(key).isEqualTo("rw-------");
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder()))).isEqualTo("rwx------");
        try (var files = Files.list(folder())) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("ca.crt", "ca.key",
                    "tls.crt", "tls.key", "tls.lock");
        }
    }

    @Test
    void aRestartReusesTheFilesWhileTheyServe() throws Exception {
        at(NOW).ensure(NAMES);
        List<String> before = contents();

        at(NOW.plus(SelfSignedCertificates.SERVING_LIFETIME).minus(SelfSignedCertificates.RENEW_BEFORE).minusSeconds(60))
                .ensure(Set.of("localhost", "0:0:0:0:0:0:0:1", "SCHEDULER.example.com"));

        assertThat(contents()).isEqualTo(before);
    }

    @Test
    void aCertificateExpiringWithinThirtyDaysIsIssuedAgainByTheSameAuthority() throws Exception {
        at(NOW).ensure(NAMES);
        List<String> before = contents();
        Instant later = NOW.plus(SelfSignedCertificates.SERVING_LIFETIME).minus(SelfSignedCertificates.RENEW_BEFORE)
                .plusSeconds(60);

        at(later).ensure(NAMES);

        List<String> after = contents();
        assertThat(after.subList(0, 2)).as("the authority").isEqualTo(before.subList(0, 2));
        assertThat(after.get(2)).as("the serving certificate").isNotEqualTo(before.get(2));
        assertThat(certificate(SelfSignedCertificates.SERVING_CERTIFICATE).getNotAfter().toInstant())
                .isEqualTo(later.plus(SelfSignedCertificates.SERVING_LIFETIME));
    }

    @Test
    void aNameTheCertificateLacksHasItIssuedAgainNamingIt() throws Exception {
        at(NOW).ensure(NAMES);
        List<String> before = contents();
        Set<String> more = new LinkedHashSet<>(NAMES);
        more.add("10.0.0.7");

        at(NOW).ensure(more);

        assertThat(contents().subList(0, 2)).isEqualTo(before.subList(0, 2));
        assertThat(SelfSignedCertificates.namesOf(certificate(SelfSignedCertificates.SERVING_CERTIFICATE)))
                .contains("10.0.0.7", "scheduler.example.com");
    }

    @Test
    void anExpiringAuthorityIsGeneratedAgainWithANewCertificate() throws Exception {
        at(NOW).ensure(NAMES);
        List<String> before = contents();

        at(NOW.plus(SelfSignedCertificates.AUTHORITY_LIFETIME).minusSeconds(60)).ensure(NAMES);

        List<String> after = contents();
        assertThat(after.get(0)).isNotEqualTo(before.get(0));
        certificate(SelfSignedCertificates.SERVING_CERTIFICATE)
                .verify(certificate(SelfSignedCertificates.AUTHORITY_CERTIFICATE).getPublicKey());
    }

    @Test
    void aCertificateSignedByAnotherAuthorityIsIssuedAgain() throws Exception {
        at(NOW).ensure(NAMES);
        Files.delete(folder().resolve(SelfSignedCertificates.AUTHORITY_CERTIFICATE));
        Files.delete(folder().resolve(SelfSignedCertificates.AUTHORITY_KEY));

        at(NOW).ensure(NAMES);

        certificate(SelfSignedCertificates.SERVING_CERTIFICATE)
                .verify(certificate(SelfSignedCertificates.AUTHORITY_CERTIFICATE).getPublicKey());
    }

    @Test
    void schedulersStartingTogetherInOneDirectoryServeOneAuthoritysCertificate() throws Exception {
        ExecutorService starts = Executors.newFixedThreadPool(6);
        try {
            for (int round = 0; round < 5; round++) {
                Path folder = dataDir.resolve("together-" + round);
                CountDownLatch go = new CountDownLatch(1);
                List<Future<SelfSignedCertificates.Issued>> issued = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    issued.add(starts.submit(() -> {
                        go.await();
                        return new SelfSignedCertificates(folder, Clock.fixed(NOW, ZoneOffset.UTC)).ensure(NAMES);
                    }));
                }
                go.countDown();
                for (Future<SelfSignedCertificates.Issued> one : issued) {
                    one.get(60, TimeUnit.SECONDS);
                }

                SelfSignedCertificates.readCertificate(folder.resolve(SelfSignedCertificates.SERVING_CERTIFICATE))
                        .verify(SelfSignedCertificates.readCertificate(
                                folder.resolve(SelfSignedCertificates.AUTHORITY_CERTIFICATE)).getPublicKey());
            }
        } finally {
            starts.shutdownNow();
        }
    }

    @Test
    void anUnreadableFileIsAnErrorNamingItNotAQuietReplacement() throws Exception {
        at(NOW).ensure(NAMES);
        Files.writeString(folder().resolve(SelfSignedCertificates.SERVING_CERTIFICATE), "not a certificate");

        assertThatThrownBy(() -> at(NOW).ensure(NAMES)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("tls.crt").hasMessageContaining("remove the folder");
    }

    @Test
    void theDefaultNamesAreTheLoopbackOnesThisHostAndTheConfiguredOnes() {
        assertThat(SelfSignedCertificates.defaultNames(List.of(" platform.example.com ", "", "10.1.2.3")))
                .startsWith("localhost", "127.0.0.1", "::1").endsWith("platform.example.com", "10.1.2.3");
    }

    private SelfSignedCertificates at(Instant now) {
        return new SelfSignedCertificates(folder(), Clock.fixed(now, ZoneOffset.UTC));
    }

    private Path folder() {
        return dataDir.resolve("tls");
    }

    private X509Certificate certificate(String name) throws Exception {
        return SelfSignedCertificates.readCertificate(folder().resolve(name));
    }

    /** ca.crt, ca.key, tls.crt, tls.key. */
    private List<String> contents() throws IOException {
        return List.of(read(SelfSignedCertificates.AUTHORITY_CERTIFICATE), read(SelfSignedCertificates.AUTHORITY_KEY),
                read(SelfSignedCertificates.SERVING_CERTIFICATE), read(SelfSignedCertificates.SERVING_KEY));
    }

    private String read(String name) throws IOException {
        return Files.readString(folder().resolve(name));
    }
}
