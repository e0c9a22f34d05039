package dev.platform.scheduler.core.model;

/**
 * Quota of one resource in one flavor, in milli-units. A {@code null} borrowingLimit or lendingLimit means
 * "no limit", as an absent field does in Kueue.
 */
public record ResourceQuota(String name, long nominalQuota, Long borrowingLimit, Long lendingLimit) {

    public static ResourceQuota of(String name, long nominalQuota) {
        return new ResourceQuota(name, nominalQuota, null, null);
    }
}
