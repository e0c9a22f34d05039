package dev.platform.scheduler.tls;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.IPAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The certificate the HTTPS connector serves when none is configured: a certificate authority of the scheduler's
 * own and a serving certificate it signs, both ECDSA P-256, kept as PEM files in one folder (keys readable by
 * the owner only) and reused on restart, so a kubeconfig holding the authority stays valid. The serving
 * certificate is issued again when it expires within {@link #RENEW_BEFORE}, no longer names every configured host,
 * or was not signed by the authority on disk; the authority itself only when it expires within the same margin.
 * Clients (Go's crypto/x509 among them) check the subject alternative names, never the common name.
 */
final class SelfSignedCertificates {

    private static final Logger log = LoggerFactory.getLogger(SelfSignedCertificates.class);

    static final Duration RENEW_BEFORE = Duration.ofDays(30);
    static final Duration AUTHORITY_LIFETIME = Duration.ofDays(3650);
    static final Duration SERVING_LIFETIME = Duration.ofDays(365);
    /** Backdated against clients whose clock runs behind the scheduler's. */
    private static final Duration BACKDATE = Duration.ofHours(1);

    static final String AUTHORITY_CERTIFICATE = "ca.crt";
    static final String AUTHORITY_KEY = "ca.key";
    static final String SERVING_CERTIFICATE = "tls.crt";
    static final String SERVING_KEY = "tls.key";
    /** Held while the files are read and written. */
    static final String LOCK = "tls.lock";

    /** Why a certificate is generated at start. */
    enum Reason {
        Missing("none in the folder yet"),
        Expiring("it expires within " + RENEW_BEFORE.toDays() + " days"),
        NamesNotCovered("it does not name every configured host"),
        NewAuthority("the certificate authority was generated again");

        private final String text;

        Reason(String text) {
            this.text = text;
        }
    }

    /** The files the connector serves, and the authority's PEM that clients trust. */
    record Issued(Path certificate, Path privateKey, String authorityPem) {
    }

    private final Path folder;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    SelfSignedCertificates(Path folder, Clock clock) {
        this.folder = folder;
        this.clock = clock;
    }

    /** localhost, 127.0.0.1, ::1 and this machine's host name, then {@code extra}; in that order, without repeats. */
    static Set<String> defaultNames(Collection<String> extra) {
        Set<String> names = new LinkedHashSet<>(List.of("localhost", "127.0.0.1", "::1"));
        try {
            names.add(InetAddress.getLocalHost().getHostName());
        } catch (UnknownHostException e) {
            log.warn("the self-signed certificate does not name this machine: its host name does not resolve ({});"
                    + " name it in platform.tls.subject-alternative-names", e.getMessage());
        }
        extra.stream().map(String::strip).filter(name -> !name.isEmpty()).forEach(names::add);
        return names;
    }

    /** The certificates for {@code names}, from the folder when they still serve, else generated now. */
    Issued ensure(Set<String> names) {
        try {
            Files.createDirectories(folder, ownerOnly("rwx"));
            // Two schedulers started together in one directory (on an external database) would otherwise each
            // generate an authority, and one could sign with the key the other's certificate does not match.
            // A file lock keeps other processes out; threads of this one (which it does not tell apart) wait here.
            synchronized (SelfSignedCertificates.class) {
                try (FileChannel lockFile = FileChannel.open(folder.resolve(LOCK), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE); FileLock ignored = lockFile.lock()) {
                    return ensureLocked(names);
                }
            }
        } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("could not prepare the HTTPS connector's self-signed certificate in "
                    + folder + ": " + e.getMessage() + " (remove the folder to have new ones generated, or configure"
                    + " platform.tls.certificate and platform.tls.private-key)", e);
        }
    }

    private Issued ensureLocked(Set<String> names)
            throws IOException, GeneralSecurityException, OperatorCreationException {
        Instant now = clock.instant();
        Path caCertificate = folder.resolve(AUTHORITY_CERTIFICATE);
        Path caKey = folder.resolve(AUTHORITY_KEY);
        Reason authorityReason = renewalOf(caCertificate, caKey, now, Set.of(), null);
        if (authorityReason != null) {
            KeyPair keys = newKeyPair();
            X509Certificate authority = authority(keys, now);
            write(caKey, pem(keys.getPrivate()), true);
            write(caCertificate, pem(authority), false);
            log.info("generated the HTTPS connector's certificate authority in {} ({}), valid until {}",
                    folder, authorityReason.text, authority.getNotAfter().toInstant());
        }
        X509Certificate authority = readCertificate(caCertificate);
        Path certificate = folder.resolve(SERVING_CERTIFICATE);
        Path key = folder.resolve(SERVING_KEY);
        Reason servingReason = renewalOf(certificate, key, now, names, authority);
        if (servingReason != null) {
            KeyPair keys = newKeyPair();
            X509Certificate serving = serving(keys, names, authority, readKey(caKey), now);
            write(key, pem(keys.getPrivate()), true);
            write(certificate, pem(serving), false);
            log.info("generated the HTTPS connector's certificate in {} ({}) for {}, valid until {}", folder,
                    servingReason.text, String.join(", ", names), serving.getNotAfter().toInstant());
        }
        return new Issued(certificate, key, Files.readString(caCertificate));
    }

    /** Null when the certificate in the folder still serves. */
    private static Reason renewalOf(Path certificateFile, Path keyFile, Instant now, Set<String> names,
                                    X509Certificate issuer) throws IOException, GeneralSecurityException {
        if (!Files.exists(certificateFile) || !Files.exists(keyFile)) {
            return Reason.Missing;
        }
        X509Certificate certificate = readCertificate(certificateFile);
        readKey(keyFile);
        if (certificate.getNotAfter().toInstant().isBefore(now.plus(RENEW_BEFORE))) {
            return Reason.Expiring;
        }
        if (issuer != null && !signedBy(certificate, issuer)) {
            return Reason.NewAuthority;
        }
        if (!namesOf(certificate).containsAll(names.stream().map(SelfSignedCertificates::normalized).toList())) {
            return Reason.NamesNotCovered;
        }
        return null;
    }

    private static boolean signedBy(X509Certificate certificate, X509Certificate issuer) {
        try {
            certificate.verify(issuer.getPublicKey());
            return true;
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /** The subject alternative names of a certificate, as {@link #normalized} writes them. */
    static Set<String> namesOf(X509Certificate certificate) throws CertificateParsingException {
        Collection<List<?>> entries = certificate.getSubjectAlternativeNames();
        if (entries == null) {
            return Set.of();
        }
        return entries.stream().filter(entry -> entry.get(1) instanceof String)
                .map(entry -> normalized((String) entry.get(1))).collect(Collectors.toSet());
    }

    /** A host name in lower case; an IP address as Java prints it ({@code ::1} is {@code 0:0:0:0:0:0:0:1}). */
    static String normalized(String name) {
        if (isIpAddress(name)) {
            try {
                return InetAddress.getByName(name).getHostAddress();
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("not an IP address: " + name, e);
            }
        }
        return name.toLowerCase(Locale.ROOT);
    }

    private static boolean isIpAddress(String name) {
        return IPAddress.isValid(name);
    }

    private X509Certificate authority(KeyPair keys, Instant now)
            throws GeneralSecurityException, OperatorCreationException, CertIOException {
        X500Name subject = new X500Name("CN=platform-scheduler-ca-" + now.getEpochSecond());
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, serialNumber(),
                Date.from(now.minus(BACKDATE)), Date.from(now.plus(AUTHORITY_LIFETIME)), subject, keys.getPublic());
        JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
        builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        builder.addExtension(Extension.subjectKeyIdentifier, false,
                extensions.createSubjectKeyIdentifier(keys.getPublic()));
        return signed(builder, keys.getPrivate());
    }

    private X509Certificate serving(KeyPair keys, Set<String> names, X509Certificate authority, PrivateKey authorityKey,
                                    Instant now) throws GeneralSecurityException, OperatorCreationException, CertIOException {
        Instant notAfter = now.plus(SERVING_LIFETIME);
        if (notAfter.isAfter(authority.getNotAfter().toInstant())) {
            notAfter = authority.getNotAfter().toInstant();
        }
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(authority, serialNumber(),
                Date.from(now.minus(BACKDATE)), Date.from(notAfter), new X500Name("CN=platform-scheduler"),
                keys.getPublic());
        JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
        builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
        builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names.stream()
                .map(name -> new GeneralName(isIpAddress(name) ? GeneralName.iPAddress : GeneralName.dNSName, name))
                .toArray(GeneralName[]::new)));
        builder.addExtension(Extension.subjectKeyIdentifier, false,
                extensions.createSubjectKeyIdentifier(keys.getPublic()));
        builder.addExtension(Extension.authorityKeyIdentifier, false,
                extensions.createAuthorityKeyIdentifier(authority));
        return signed(builder, authorityKey);
    }

    private static X509Certificate signed(X509v3CertificateBuilder builder, PrivateKey key)
            throws OperatorCreationException, CertificateException {
        return new JcaX509CertificateConverter().getCertificate(
                builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(key)));
    }

    /** Positive and random, as RFC 5280 asks (at most 20 octets). */
    private BigInteger serialNumber() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return new BigInteger(1, bytes);
    }

    private static KeyPair newKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    static X509Certificate readCertificate(Path file) throws IOException, CertificateException {
        try (InputStream in = Files.newInputStream(file)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        } catch (CertificateException e) {
            throw new CertificateException(file + " holds no readable PEM certificate: " + e.getMessage(), e);
        }
    }

    private static PrivateKey readKey(Path file) throws IOException, GeneralSecurityException {
        String pem = Files.readString(file, StandardCharsets.US_ASCII);
        String body = pem.replace("-----BEGIN PRIVATE KEY-----", "").replace("-----END PRIVATE KEY-----", "")
                .replaceAll("\\s", "");
        try {
            return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            throw new GeneralSecurityException(file + " holds no readable PKCS#8 EC private key: " + e.getMessage(), e);
        }
    }

    private static String pem(Object object) throws IOException {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object instanceof PrivateKey key ? new JcaPKCS8Generator(key, null) : object);
        }
        return text.toString();
    }

    /**
     * Written beside and moved into place, so a crash leaves the old file or the new one, never half of one; a key
     * is created readable by its owner only before a byte of it is written.
     */
    private void write(Path file, String content, boolean secret) throws IOException {
        Path partial = Files.createTempFile(folder, file.getFileName().toString(), ".partial", ownerOnly("rw-"));
        try {
            Files.writeString(partial, content, StandardCharsets.US_ASCII);
            if (!secret && posix()) {
                Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rw-r--r--"));
            }
            try {
                Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    private static FileAttribute<?>[] ownerOnly(String permissions) {
        return posix() ? new FileAttribute<?>[]{PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString(permissions + "------"))} : new FileAttribute<?>[0];
    }

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }
}
