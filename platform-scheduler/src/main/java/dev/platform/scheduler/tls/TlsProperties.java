package dev.platform.scheduler.tls;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.nio.file.Path;
import java.util.List;

/**
 * The scheduler's HTTPS connector, beside the plain HTTP one on {@code server.port}: the same application on
 * both. kubectl and client-go send a bearer token only over TLS, so this is the port a kubeconfig names.
 *
 * @param enabled                  false: no HTTPS connector
 * @param port                     the HTTPS port; 0 picks a free one (read back as {@code local.platform.tls.port}),
 *                                 -1 turns the connector off
 * @param certificate              a PEM file with the serving certificate (and its chain), with
 *                                 platform.tls.private-key. Absent: a self-signed authority and a certificate it
 *                                 signs are generated in the data directory's {@code tls/}
 * @param privateKey               the PEM file of the certificate's private key (PKCS#8 or PKCS#1, unencrypted)
 * @param certificateAuthority     the PEM file of the authority that signed platform.tls.certificate, written into
 *                                 kubeconfigs; absent for a certificate that clients trust already
 * @param subjectAlternativeNames  host names and IP addresses the self-signed certificate names besides
 *                                 localhost, 127.0.0.1, ::1 and the machine's host name
 */
@ConfigurationProperties("platform.tls")
public record TlsProperties(@DefaultValue("true") boolean enabled,
                            @DefaultValue("8443") int port,
                            Path certificate,
                            Path privateKey,
                            Path certificateAuthority,
                            @DefaultValue List<String> subjectAlternativeNames) {

    public TlsProperties {
        subjectAlternativeNames = List.copyOf(subjectAlternativeNames);
        if ((certificate == null) != (privateKey == null)) {
            throw new IllegalArgumentException("platform.tls.certificate and platform.tls.private-key go together: "
                    + "set both (a certificate of your own) or neither (a self-signed one is generated)");
        }
        if (certificateAuthority != null && certificate == null) {
            throw new IllegalArgumentException("platform.tls.certificate-authority names the authority of"
                    + " platform.tls.certificate, which is not set");
        }
        if (port < -1 || port > 65535) {
            throw new IllegalArgumentException("platform.tls.port must be a port number, 0 for a free one or -1 for"
                    + " no HTTPS connector, not " + port);
        }
    }

    /** Whether the scheduler serves HTTPS at all. */
    public boolean serves() {
        return enabled && port >= 0;
    }

    boolean selfSigned() {
        return certificate == null;
    }
}
