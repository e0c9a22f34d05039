package dev.platform.scheduler.web;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * The OpenAPI 3 description of {@code /api/v1} ({@code /v3/api-docs}, Swagger UI at
 * {@code /swagger-ui.html}). Schemas come from the controllers' records; what springdoc cannot
 * see is added here from {@code openapi/examples.yaml}: the bodies that controllers read raw
 * (manifests and workloads as YAML or JSON), examples of requests, responses and path
 * parameters, the RFC 9457 problem every error answers with, and the bearer token every call
 * presents.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    static final String BEARER = "bearer";
    private static final String PROBLEM = "Problem";

    @Bean
    OpenAPI platformOpenApi() {
        return new OpenAPI()
                .info(new Info().title("Queueing and Hotswap platform API").version("v1")
                        .description("Kueue-compatible queueing, preemption and Hotswap for accelerator clusters. "
                                + "Manifests are Kueue's and JobSet's own YAML; errors are RFC 9457 problem details."))
                .components(new Components()
                        .addSecuritySchemes(BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                                .description("An API token (users, Admin bootstrap token) or a cluster's agent token"))
                        .addSchemas(PROBLEM, problemSchema()))
                .addSecurityItem(new SecurityRequirement().addList(BEARER));
    }

    @Bean
    OpenApiCustomizer platformExamples() {
        Examples examples = Examples.load();
        return openApi -> openApi.getPaths().forEach((path, item) -> item.readOperationsMap()
                .forEach((method, operation) -> examples.apply(method.name() + " " + path, operation)));
    }

    private static Schema<?> problemSchema() {
        return new ObjectSchema().description("RFC 9457 problem details with the platform's errors array")
                .addProperty("type", new StringSchema()).addProperty("title", new StringSchema())
                .addProperty("status", new io.swagger.v3.oas.models.media.IntegerSchema())
                .addProperty("detail", new StringSchema()).addProperty("instance", new StringSchema())
                .addProperty("errors", new io.swagger.v3.oas.models.media.ArraySchema().items(new ObjectSchema()
                        .addProperty("document", new io.swagger.v3.oas.models.media.IntegerSchema())
                        .addProperty("path", new StringSchema()).addProperty("message", new StringSchema())));
    }

    /** {@code openapi/examples.yaml}: per operation ("METHOD /path") a summary, body, response and error examples. */
    private record Examples(Map<String, Map<String, Object>> operations, Map<String, Object> parameters) {

        @SuppressWarnings("unchecked")
        static Examples load() {
            try (InputStream in = OpenApiConfiguration.class.getResourceAsStream("/openapi/examples.yaml")) {
                Map<String, Object> all = new Yaml().load(in);
                return new Examples((Map<String, Map<String, Object>>) all.get("operations"),
                        (Map<String, Object>) all.get("parameters"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @SuppressWarnings("unchecked")
        void apply(String key, Operation operation) {
            if (operation.getParameters() != null) {
                for (Parameter parameter : operation.getParameters()) {
                    if (parameter.getExample() == null && parameters.containsKey(parameter.getName())) {
                        parameter.setExample(parameters.get(parameter.getName()));
                    }
                }
            }
            Map<String, Object> spec = operations.getOrDefault(key, Map.of());
            if (spec.get("summary") instanceof String summary) {
                operation.setSummary(summary);
            }
            if (spec.get("request") instanceof Map<?, ?> request) {
                Content content = new Content();
                ((Map<String, Object>) request).forEach((type, example) -> content.addMediaType(type,
                        new MediaType().schema(type.contains("yaml") ? new StringSchema() : new ObjectSchema())
                                .addExamples("example", new Example().value(example))));
                operation.setRequestBody(new RequestBody().required(true).content(content));
            }
            if (spec.get("response") != null && operation.getResponses() != null) {
                operation.getResponses().entrySet().stream().filter(r -> r.getKey().startsWith("2"))
                        .map(Map.Entry::getValue).filter(r -> r.getContent() != null)
                        .forEach(r -> r.getContent().values().forEach(m -> m.setExample(spec.get("response"))));
            }
            ApiResponse problem = new ApiResponse().description("The request was refused; see the problem's errors")
                    .content(new Content().addMediaType("application/problem+json",
                            new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM))));
            for (String status : (List<String>) spec.getOrDefault("errors", List.of("400"))) {
                if (!operation.getResponses().containsKey(status)) {
                    operation.getResponses().addApiResponse(status, problem);
                }
            }
        }
    }
}
