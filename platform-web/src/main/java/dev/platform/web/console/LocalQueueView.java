package dev.platform.web.console;

/** A LocalQueue: the namespace's entry to a ClusterQueue. */
public record LocalQueueView(String namespace, String name, String clusterQueue, String stopPolicy) {
}
