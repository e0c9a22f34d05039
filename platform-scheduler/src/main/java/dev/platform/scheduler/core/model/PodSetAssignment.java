package dev.platform.scheduler.core.model;

import java.util.Map;

/** Admission of one pod set: the pod count admitted, the flavor per resource and the total usage per resource. */
public record PodSetAssignment(String name, int count, Map<String, String> flavors, Map<String, Long> resourceUsage) {

    public PodSetAssignment {
        flavors = Map.copyOf(flavors);
        resourceUsage = Map.copyOf(resourceUsage);
    }
}
