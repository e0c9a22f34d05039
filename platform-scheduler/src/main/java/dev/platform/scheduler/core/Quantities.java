package dev.platform.scheduler.core;

/** Formats milli-units the way Kubernetes prints quantities: "2" for 2000, "500m" for 500. */
final class Quantities {

    private Quantities() {
    }

    static String format(long milli) {
        return milli % 1000 == 0 ? Long.toString(milli / 1000) : milli + "m";
    }
}
