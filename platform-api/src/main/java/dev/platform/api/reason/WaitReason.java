package dev.platform.api.reason;

/**
 * Why a pending workload waits, as its row records it: a {@link PendingReason}, or, for a workload requeued with
 * backoff, the {@link EvictionReason} that requeued it.
 */
public sealed interface WaitReason permits PendingReason, EvictionReason {

    String name();

    /** The reason a stored code names, a PendingReason before an EvictionReason of the same name; null for none. */
    static WaitReason of(String code) {
        if (code == null) {
            return null;
        }
        for (PendingReason reason : PendingReason.values()) {
            if (reason.name().equals(code)) {
                return reason;
            }
        }
        return EvictionReason.valueOf(code);
    }
}
