package dev.platform.agent.webhook;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.util.io.pem.PemObject;

/**
 * The webhook's own certificate authority and the serving certificate it signed, as Kueue's internal certificate
 * manager keeps them: in a Secret under {@code ca.crt}, {@code ca.key}, {@code tls.crt} and {@code tls.key}, the
 * CA's certificate published as the webhook configurations' {@code caBundle}. ECDSA P-256 keys (quick to make,
 * accepted by every API server). {@code previousCa} is the CA that signed the serving certificates before a CA
 * renewal: the bundle keeps it until it expires, so an API server that has not yet read the new bundle still
 * trusts the agent.
 */
public record WebhookCertificate(X509Certificate ca, PrivateKey caKey, X509Certificate serving, PrivateKey servingKey,
                                 X509Certificate previousCa) {

    /** How long a CA is valid; it is renewed {@link #CA_RENEWAL} before it ends. */
    static final Duration CA_VALIDITY = Duration.ofDays(10 * 365);
    static final Duration CA_RENEWAL = Duration.ofDays(365);
    /** How long a serving certificate is valid; it is renewed {@link #SERVING_RENEWAL} before it ends. */
    static final Duration SERVING_VALIDITY = Duration.ofDays(365);
    static final Duration SERVING_RENEWAL = Duration.ofDays(90);
    /** A certificate is dated this far back, for API servers whose clocks run a little behind. */
    private static final Duration BACKDATE = Duration.ofHours(1);

    static final String CA_CERT = "ca.crt";
    static final String CA_KEY = "ca.key";
    static final String TLS_CERT = "tls.crt";
    static final String TLS_KEY = "tls.key";

    private static final SecureRandom RANDOM = new SecureRandom();

    /** A new CA and a serving certificate for {@code hosts} (DNS names, or IP addresses), valid from {@code now}. */
    public static WebhookCertificate generate(List<String> hosts, Instant now) {
        KeyPair caKeys = keyPair();
        X509Certificate ca = sign(new X500Name("CN=platform-agent-webhook-ca-" + now.getEpochSecond()),
                caKeys, caKeys.getPrivate(), null, now, CA_VALIDITY, List.of());
        return issue(ca, caKeys.getPrivate(), null, hosts, now);
    }

    /**
     * What is due at {@code now}: a new CA when this one ends within {@link #CA_RENEWAL} (keeping this one in the
     * bundle), a new serving certificate when it ends within {@link #SERVING_RENEWAL} or does not name exactly
     * {@code hosts}; else this, unchanged.
     */
    public WebhookCertificate renewedAsDue(List<String> hosts, Instant now) {
        if (!now.isBefore(ca.getNotAfter().toInstant().minus(CA_RENEWAL))) {
            WebhookCertificate fresh = generate(hosts, now);
            return new WebhookCertificate(fresh.ca, fresh.caKey, fresh.serving, fresh.servingKey, ca);
        }
        if (!now.isBefore(serving.getNotAfter().toInstant().minus(SERVING_RENEWAL)) || !names(serving).equals(hosts)) {
            return issue(ca, caKey, previousCa, hosts, now);
        }
        return this;
    }

    /** The PEM the webhook configurations carry as {@code caBundle}: the CA, and the previous one while it is valid. */
    public String caBundle(Instant now) {
        String bundle = pem(ca);
        if (previousCa != null && now.isBefore(previousCa.getNotAfter().toInstant())) {
            bundle += pem(previousCa);
        }
        return bundle;
    }

    /** The Secret's data. */
    public Map<String, byte[]> secretData(Instant now) {
        Map<String, byte[]> data = new LinkedHashMap<>();
        data.put(CA_CERT, caBundle(now).getBytes(StandardCharsets.UTF_8));
        data.put(CA_KEY, pem(caKey).getBytes(StandardCharsets.UTF_8));
        data.put(TLS_CERT, (pem(serving) + pem(ca)).getBytes(StandardCharsets.UTF_8));
        data.put(TLS_KEY, pem(servingKey).getBytes(StandardCharsets.UTF_8));
        return data;
    }

    /** @throws IllegalArgumentException naming the key that is missing or unreadable */
    public static WebhookCertificate fromSecretData(Map<String, byte[]> data) {
        List<X509Certificate> cas = certificates(data, CA_CERT);
        return new WebhookCertificate(cas.get(0), privateKey(data, CA_KEY), certificates(data, TLS_CERT).get(0),
                privateKey(data, TLS_KEY), cas.size() > 1 ? cas.get(1) : null);
    }

    /** The serving key and certificate, followed by its CA: what the server presents. */
    public ServingKeys.Identity identity() {
        return new ServingKeys.Identity(servingKey, new X509Certificate[] {serving, ca});
    }

    private static WebhookCertificate issue(X509Certificate ca, PrivateKey caKey, X509Certificate previousCa,
                                            List<String> hosts, Instant now) {
        KeyPair keys = keyPair();
        X509Certificate serving = sign(new X500Name("CN=" + (hosts.isEmpty() ? "platform-agent-webhook" : hosts.get(0))),
                keys, caKey, ca, now, SERVING_VALIDITY, hosts);
        return new WebhookCertificate(ca, caKey, serving, keys.getPrivate(), previousCa);
    }

    private static X509Certificate sign(X500Name subject, KeyPair keys, PrivateKey signer, X509Certificate issuer,
                                        Instant now, Duration validity, List<String> hosts) {
        try {
            X500Name issuerName = issuer == null ? subject : X500Name.getInstance(issuer.getSubjectX500Principal().getEncoded());
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuerName,
                    new BigInteger(127, RANDOM), Date.from(now.minus(BACKDATE)), Date.from(now.plus(validity)), subject,
                    keys.getPublic());
            if (issuer == null) {
                builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
                builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            } else {
                builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
                builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
                builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
                builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(hosts.stream()
                        .map(WebhookCertificate::generalName).toArray(GeneralName[]::new)));
            }
            X509CertificateHolder holder = builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer));
            return new JcaX509CertificateConverter().getCertificate(holder);
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("could not sign a webhook certificate: " + e.getMessage(), e);
        }
    }

    private static GeneralName generalName(String host) {
        boolean address = host.matches("[0-9.]+") || host.contains(":");
        return new GeneralName(address ? GeneralName.iPAddress : GeneralName.dNSName, host);
    }

    /** The host names and addresses a certificate is valid for, in its order. */
    static List<String> names(X509Certificate certificate) {
        List<String> names = new ArrayList<>();
        try {
            if (certificate.getSubjectAlternativeNames() != null) {
                certificate.getSubjectAlternativeNames().forEach(name -> names.add(String.valueOf(name.get(1))));
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("unreadable subject alternative names: " + e.getMessage(), e);
        }
        return names;
    }

    private static KeyPair keyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no EC key generator: " + e.getMessage(), e);
        }
    }

    /** A certificate, or a private key as PKCS#8 ({@code PRIVATE KEY}), in PEM. */
    static String pem(Object object) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            if (object instanceof PrivateKey key) {
                writer.writeObject(new PemObject("PRIVATE KEY", key.getEncoded()));
            } else {
                writer.writeObject(object);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    static List<X509Certificate> certificates(Map<String, byte[]> data, String key) {
        List<X509Certificate> certificates = new ArrayList<>();
        for (Object object : pemObjects(data, key)) {
            if (object instanceof X509CertificateHolder holder) {
                try {
                    certificates.add(new JcaX509CertificateConverter().getCertificate(holder));
                } catch (GeneralSecurityException e) {
                    throw new IllegalArgumentException(key + ": unreadable certificate: " + e.getMessage(), e);
                }
            }
        }
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException(key + " holds no PEM certificate");
        }
        return certificates;
    }

    static PrivateKey privateKey(Map<String, byte[]> data, String key) {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        for (Object object : pemObjects(data, key)) {
            try {
                if (object instanceof PEMKeyPair pair) {
                    return converter.getKeyPair(pair).getPrivate();
                }
                if (object instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
            } catch (IOException e) {
                throw new IllegalArgumentException(key + ": unreadable private key: " + e.getMessage(), e);
            }
        }
        throw new IllegalArgumentException(key + " holds no PEM private key");
    }

    private static List<Object> pemObjects(Map<String, byte[]> data, String key) {
        byte[] bytes = data.get(key);
        if (bytes == null) {
            throw new IllegalArgumentException("no " + key);
        }
        List<Object> objects = new ArrayList<>();
        try (PEMParser parser = new PEMParser(new StringReader(new String(bytes, StandardCharsets.UTF_8)))) {
            for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
                objects.add(object);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(key + ": unreadable PEM: " + e.getMessage(), e);
        }
        return objects;
    }
}
