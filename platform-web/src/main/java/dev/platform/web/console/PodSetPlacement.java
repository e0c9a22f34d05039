package dev.platform.web.console;

import java.util.List;
import java.util.Map;

/** What admission gave one podset: flavor per resource, total usage, and the node pools when placed. */
public record PodSetPlacement(String name, int count, Map<String, String> flavors, Map<String, String> resourceUsage,
                              List<String> nodePools) {
}
