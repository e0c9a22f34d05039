package dev.platform.scheduler.core;

import java.util.Map;

/** A namespace with its labels, matched against ClusterQueue namespaceSelectors. */
public record Namespace(String name, Map<String, String> labels) {

    public Namespace {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }
}
