package dev.platform.agent.webhook;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The key the webhook's TLS handshakes present, replaceable while it serves: a rotated certificate is used from
 * the next handshake on, without a restart or a dropped connection.
 */
public final class ServingKeys extends X509ExtendedKeyManager {

    private static final String ALIAS = "webhook";

    private final AtomicReference<Identity> current = new AtomicReference<>();

    /** A private key and the certificate chain presented with it, the serving certificate first. */
    public record Identity(PrivateKey key, X509Certificate[] chain) {
    }

    public ServingKeys(Identity identity) {
        current.set(identity);
    }

    public void use(Identity identity) {
        current.set(identity);
    }

    /** The serving certificate presented now. */
    public X509Certificate certificate() {
        return current.get().chain()[0];
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return chooseServerAlias(keyType, issuers, null);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return current.get().key().getAlgorithm().equals(keyType) ? ALIAS : null;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        String alias = chooseServerAlias(keyType, issuers, null);
        return alias == null ? null : new String[] {alias};
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return ALIAS.equals(alias) ? current.get().chain().clone() : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return ALIAS.equals(alias) ? current.get().key() : null;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }
}
