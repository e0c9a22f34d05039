package dev.platform.scheduler.database;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.nio.file.Path;

/**
 * Settings of the embedded PostgreSQL used when no external database is configured.
 *
 * @param dataDir where the cluster's files live; kept across restarts
 * @param port    TCP port on loopback; 0 picks a free one
 */
@ConfigurationProperties("platform.embedded-db")
public record EmbeddedDatabaseProperties(@DefaultValue("./.platform-data") Path dataDir,
                                         @DefaultValue("0") int port) {
}
