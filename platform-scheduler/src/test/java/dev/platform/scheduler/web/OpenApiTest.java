package dev.platform.scheduler.web;

import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;

import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /v3/api-docs} describes exactly the {@code /api/v1} endpoints the controllers map, each
 * with an example, its success schema and the problem it answers errors with; the bearer scheme
 * is declared and required; Swagger UI is served at {@code /swagger-ui.html}.
 */
class OpenApiTest extends PlatformApplicationTest {

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    @Test
    void theDescriptionListsEveryApiEndpointTheControllersMap() {
        Set<String> mapped = new TreeSet<>();
        mappings.getHandlerMethods().keySet().forEach(info -> info.getPatternValues().stream()
                .filter(path -> path.startsWith("/api/v1"))
                .forEach(path -> {
                    Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
                    assertThat(methods).as("%s names its HTTP method", path).isNotEmpty();
                    methods.forEach(m -> mapped.add(m.name() + " " + path));
                }));
        JsonNode spec = apiDocs();

        Set<String> described = new TreeSet<>();
        spec.path("paths").properties().forEach(path -> path.getValue().properties()
                .forEach(op -> described.add(op.getKey().toUpperCase() + " " + path.getKey())));

        assertThat(mapped).hasSizeGreaterThan(30);
        assertThat(described).isEqualTo(mapped);
    }

    @Test
    void everyOperationHasAnExampleItsSchemasAndTheProblemAndTheBearerSchemeIsRequired() {
        JsonNode spec = apiDocs();

        assertThat(spec.at("/openapi").asString()).startsWith("3.");
        assertThat(spec.at("/components/securitySchemes/bearer/type").asString()).isEqualTo("http");
        assertThat(spec.at("/components/securitySchemes/bearer/scheme").asString()).isEqualTo("bearer");
        assertThat(spec.at("/security/0").has("bearer")).isTrue();
        spec.path("paths").properties().forEach(path -> path.getValue().properties().forEach(op -> {
            String name = op.getKey().toUpperCase() + " " + path.getKey();
            JsonNode operation = op.getValue();
            assertThat(operation.path("summary").asString()).as("summary of %s", name).isNotBlank();
            assertThat(operation.toString()).as("an example in %s", name).containsPattern("\"examples?\"");
            assertThat(operation.path("responses").properties()).as("responses of %s", name)
                    .anySatisfy(r -> assertThat(r.getKey()).startsWith("2"))
                    .anySatisfy(r -> assertThat(r.getValue().toString()).contains("application/problem+json"));
            operation.path("responses").properties().stream().filter(r -> r.getKey().startsWith("2"))
                    .flatMap(r -> r.getValue().path("content").properties().stream())
                    .forEach(content -> assertThat(content.getValue().has("schema"))
                            .as("schema of %s %s", name, content.getKey()).isTrue());
        }));
        assertThat(spec.at("/paths/~1api~1v1~1manifests/post/requestBody/content").has("application/yaml")).isTrue();
        assertThat(spec.at("/paths/~1api~1v1~1namespaces~1{namespace}~1workloads/post/requestBody/content")
                .has("application/yaml")).isTrue();
        assertThat(spec.at("/components/schemas/WorkloadStatus/properties").has("positionInClusterQueue")).isTrue();
    }

    @Test
    void swaggerUiIsServed() {
        Response redirect = api.get("/swagger-ui.html", "text/html");
        assertThat(redirect.status()).isEqualTo(302);

        Response page = api.get("/swagger-ui/index.html", "text/html");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("Swagger UI");
    }

    private JsonNode apiDocs() {
        Response docs = api.get("/v3/api-docs");
        assertThat(docs.status()).as(docs.body()).isEqualTo(200);
        return docs.json();
    }
}
