package dev.platform.scheduler.database;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.nio.file.Path;

/**
 * Settings of the embedded PostgreSQL used when no external database is configured.
 *
 * @param dataDir where the cluster's files live; kept across restarts. One scheduler at a time: a second
 *                one on the same directory is refused at start (docs/operations.md)
 * @param port    TCP port on loopback; 0 picks a free one
 * @param durable PostgreSQL's crash-safe settings ({@code fsync}, {@code synchronous_commit},
 *                {@code full_page_writes} all on). Only a throw-away database, such as a test's,
 *                may turn it off: an acknowledged submission can then be lost to an OS crash or a
 *                power cut, and the data directory corrupted.
 */
@ConfigurationProperties("platform.embedded-db")
public record EmbeddedDatabaseProperties(@DefaultValue("./.platform-data") Path dataDir,
                                         @DefaultValue("0") int port,
                                         @DefaultValue("true") boolean durable) {
}
