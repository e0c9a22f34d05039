package dev.platform.scheduler.core.model;

import java.util.Comparator;

/** A resource in a flavor: the unit quota is accounted in. */
public record FlavorResource(String flavor, String resource) implements Comparable<FlavorResource> {

    private static final Comparator<FlavorResource> ORDER =
            Comparator.comparing(FlavorResource::flavor).thenComparing(FlavorResource::resource);

    @Override
    public int compareTo(FlavorResource o) {
        return ORDER.compare(this, o);
    }
}
