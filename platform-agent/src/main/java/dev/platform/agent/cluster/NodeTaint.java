package dev.platform.agent.cluster;

/** A node taint; effect is NoSchedule, PreferNoSchedule or NoExecute. */
public record NodeTaint(String key, String value, String effect) {

    public static final String NO_EXECUTE = "NoExecute";
}
