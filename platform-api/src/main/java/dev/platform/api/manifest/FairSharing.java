package dev.platform.api.manifest;

/** {@code fairSharing.weight}; Kueue's default is 1. */
public record FairSharing(Quantity weight) {

    public static final FairSharing DEFAULT = new FairSharing(Quantity.of(1));
}
