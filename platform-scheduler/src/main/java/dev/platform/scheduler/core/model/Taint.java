package dev.platform.scheduler.core.model;

/** A flavor's node taint; only NoSchedule and NoExecute keep workloads off (flavorassigner.checkFlavorForPodSets). */
public record Taint(String key, String value, String effect) {

    public boolean repels() {
        return "NoSchedule".equals(effect) || "NoExecute".equals(effect);
    }

    @Override
    public String toString() {
        return key + "=" + (value == null ? "" : value) + ":" + effect;
    }
}
