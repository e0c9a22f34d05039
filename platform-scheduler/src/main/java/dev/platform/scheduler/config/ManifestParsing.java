package dev.platform.scheduler.config;

import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.api.manifest.decode.KubernetesManifestParser;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The manifest parser with the body limit of {@code platform.api.max-body-bytes}. */
@Configuration(proxyBeanMethods = false)
class ManifestParsing {

    @Bean
    ManifestParser manifestParser(@Value("${platform.api.max-body-bytes:1048576}") int maxBytes) {
        ManifestLimits defaults = ManifestLimits.DEFAULT;
        return new KubernetesManifestParser(
                new ManifestLimits(maxBytes, defaults.maxAliases(), defaults.maxDepth(), defaults.maxDocuments()));
    }
}
