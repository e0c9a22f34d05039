package dev.platform.agent.webhook;

import java.util.Map;
import java.util.Optional;

/**
 * Where the webhook's CA and serving certificate are kept, so every replica serves the same certificate and a
 * restart keeps it: a Secret in the agent's namespace, or memory in simulated mode. Writes are optimistic: a
 * replica that loses a race reads what the other wrote.
 */
public interface CertificateStore {

    /** The stored data and the version it was read at. */
    record Stored(Map<String, byte[]> data, String version) {
    }

    Optional<Stored> read();

    /** @return false when something was stored meanwhile */
    boolean create(Map<String, byte[]> data);

    /** @return false when what is stored is no longer at {@code version} */
    boolean replace(Map<String, byte[]> data, String version);

    /** Memory only: simulated mode, where nothing else serves the webhook. */
    static CertificateStore inMemory() {
        return new CertificateStore() {
            private Stored stored;

            @Override
            public synchronized Optional<Stored> read() {
                return Optional.ofNullable(stored);
            }

            @Override
            public synchronized boolean create(Map<String, byte[]> data) {
                if (stored != null) {
                    return false;
                }
                stored = new Stored(Map.copyOf(data), "1");
                return true;
            }

            @Override
            public synchronized boolean replace(Map<String, byte[]> data, String version) {
                if (stored == null || !stored.version().equals(version)) {
                    return false;
                }
                stored = new Stored(Map.copyOf(data), Integer.toString(Integer.parseInt(version) + 1));
                return true;
            }
        };
    }
}
