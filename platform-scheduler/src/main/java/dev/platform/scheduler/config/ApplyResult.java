package dev.platform.scheduler.config;

import java.util.List;

/** What applying one document did: {@code created}, {@code updated} or {@code unchanged}. */
public record ApplyResult(String kind, String namespace, String name, String action, List<String> warnings) {
}
