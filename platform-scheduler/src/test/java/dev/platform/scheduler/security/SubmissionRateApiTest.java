package dev.platform.scheduler.security;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A caller who submits faster than the submission rate allows (defaults: a bucket of 500, refilled at
 * 100 a second) is told when to come back. The requests re-apply 40 workloads that exist already:
 * they count against the rate, and cost the platform little.
 */
class SubmissionRateApiTest extends PlatformApplicationTest {

    @Test
    void beyondTheBucketSubmissionsAre429WithRetryAfter() {
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "1", "Never") + """
                ---
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: a}
                spec: {namespaces: [team-a], members: [{user: burst, role: Engineer}]}
                """).status()).isEqualTo(200);
        // A user of this test alone: the bucket outlives the test in the shared application.
        assertThat(api.postJson("/api/v1/users", "{\"name\": \"burst\"}").status()).isEqualTo(201);
        PlatformClient burst = api.as(api.postJson("/api/v1/tokens", "{\"user\": \"burst\"}").json().get("token").asString());
        String forty = IntStream.range(0, 40)
                .mapToObj(i -> Manifests.job("w-" + i, "lq", "1", null).replace("metadata:", "metadata:\n  namespace: team-a"))
                .collect(Collectors.joining("---\n"));
        assertThat(burst.postYaml("/api/v1/manifests", forty).status()).isEqualTo(200);

        // 32 x 40 = 1,280 submissions: more than the bucket holds plus what refills unless they spread over 7 s.
        ExecutorService clients = Executors.newFixedThreadPool(32);
        List<Response> responses;
        try {
            responses = IntStream.range(0, 32)
                    .mapToObj(i -> CompletableFuture.supplyAsync(() -> burst.postYaml("/api/v1/manifests", forty), clients))
                    .toList().stream().map(CompletableFuture::join).toList();
        } finally {
            clients.shutdown();
        }

        List<Response> refused = responses.stream().filter(r -> r.status() == 429).toList();
        assertThat(refused).isNotEmpty();
        assertThat(responses).allSatisfy(r -> assertThat(r.status()).isIn(200, 429));
        assertThat(refused).allSatisfy(r -> {
            assertThat(Integer.parseInt(r.header("Retry-After"))).isPositive();
            assertThat(r.json().get("detail").asString()).contains("burst", "platform.security.submissions");
        });
        assertThat(api.get("/api/v1/namespaces/team-a/workloads?limit=500").json().get("items")).hasSize(40);
    }
}
