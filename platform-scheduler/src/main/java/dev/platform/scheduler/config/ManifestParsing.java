package dev.platform.scheduler.config;

import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.api.manifest.decode.KubernetesManifestParser;
import dev.platform.scheduler.web.RequestBodies;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The manifest parser, with the body limit the request bodies are read with ({@code platform.api.max-body-bytes}). */
@Configuration(proxyBeanMethods = false)
class ManifestParsing {

    @Bean
    ManifestParser manifestParser(RequestBodies bodies) {
        ManifestLimits defaults = ManifestLimits.DEFAULT;
        return new KubernetesManifestParser(
                new ManifestLimits(bodies.maxBytes(), defaults.maxAliases(), defaults.maxDepth(), defaults.maxDocuments()));
    }
}
