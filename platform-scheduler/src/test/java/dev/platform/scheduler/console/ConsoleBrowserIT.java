package dev.platform.scheduler.console;

import dev.platform.scheduler.testsupport.ConsoleBrowser;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformProcess;
import dev.platform.scheduler.testsupport.SeedManifests;
import dev.platform.scheduler.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import tools.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The console in a real browser: the scheduler and the agent on its simulated TPU cluster as
 * processes, the seed's queues applied and its JobSets submitted through REST plus one more that
 * has to wait, then in headless Chromium: the login page and its throttle, an operator logging in,
 * the queue position and pending reason, a pool failed through the agent's fault injection and seen
 * turning Unhealthy on the node-pools page without a reload (SSE), the hotswap with its phases, the victim's lost
 * work on its page, the disrupted workload protected by its queue's minimum runtime, the
 * preemption audit filtered to Hotswap with the lost work and its CSV, the team's lost work, a form sent without its
 * CSRF token refused, the
 * team lead's view after logging out and in again, an Admin stopping and resuming the team's LocalQueue
 * from the team page, and a screenshot of every page under target/screenshots.
 *
 * <p>Needs Debian's {@code chromium} and {@code chromium-driver} ({@code .ci/run} installs them);
 * Selenium Manager is never asked to download a driver: both paths are given.
 */
class ConsoleBrowserIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final String PASSWORD = "console-browser-password";

    @TempDir
    Path workDir;

    @Test
    void anOperatorFollowsAHotswapThroughTheConsole() throws Exception {
        // Reported as skipped, not passed, on a machine without the browser; CI installs it (.ci/run).
        assumeTrue(ConsoleBrowser.installed(),
                "Debian chromium and chromium-driver are not installed: apt-get install chromium chromium-driver");
        TestDatabase.Connection db = TestDatabase.createDatabase("console_browser");
        List<String> args = new ArrayList<>(PlatformProcess.database(db));
        args.add("--platform.hotswap.grace=2s");
        try (PlatformProcess scheduler = PlatformProcess.start(workDir, "scheduler", args).awaitUp();
             PlatformProcess agent = PlatformProcess.startSimulatedAgent(workDir, scheduler.url(), "sim").awaitUp()) {
            PlatformClient api = scheduler.client();
            // the cluster is a 404 problem answer until its agent first reports
            await().atMost(PATIENCE).ignoreExceptions().until(() -> healthyPools(api) == 5);
            submitSeed(api);
            JsonNode high = awaitWorkload(api, "high-jax-trillium", w -> "Running".equals(w.get("state").asString()));
            awaitWorkload(api, "low-jax-trillium", w -> "Running".equals(w.get("state").asString()));
            awaitWorkload(api, "queued-jax-trillium",
                    w -> "WaitingForQuota".equals(w.at("/pendingReason/code").asString()));
            String failing = high.at("/admission/podSetAssignments/0/nodePools/1").asString();

            createUsers(api);

            try (ConsoleBrowser console = ConsoleBrowser.start(scheduler.url())) {
                WebDriver browser = console.browser();

                console.open("/");
                assertThat(browser.getCurrentUrl()).endsWith("/login");
                console.screenshot("login");
                for (int attempt = 1; attempt <= 5; attempt++) {
                    console.submitLogin("guessed", "not-the-password-" + attempt);
                    assertThat(browser.findElement(By.cssSelector(".errors")).getText())
                            .isEqualTo("Wrong user name or password.");
                }
                console.submitLogin("guessed", PASSWORD);
                assertThat(browser.findElement(By.cssSelector(".errors")).getText())
                        .startsWith("Too many failed logins. Try again in");
                console.screenshot("login-throttled");

                console.logIn("operator", PASSWORD);
                assertThat(browser.findElement(By.cssSelector(".who-name")).getText()).isEqualTo("operator");
                console.open("/");
                await().atMost(PATIENCE).ignoreExceptions().untilAsserted(() -> assertThat(
                        browser.findElement(By.cssSelector(".pool-summary")).getText()).contains("5 Healthy"));
                console.screenshot("overview");

                console.open("/queues");
                console.screenshot("queues");
                browser.findElement(By.linkText("tpu-training-cq")).click();
                WebElement pending = browser.findElement(By.xpath(
                        "//section[@aria-labelledby='pending']//tr[.//a[text()='default/queued-jax-trillium']]"));
                List<WebElement> cells = pending.findElements(By.tagName("td"));
                assertThat(cells.get(0).getText()).isEqualTo("0");
                assertThat(pending.getText()).contains("Waiting for quota to free up", "WaitingForQuota");
                console.screenshot("queue-detail");

                console.open("/nodepools");
                By failingTile = By.cssSelector("li.pool[data-pool='" + failing + "']");
                await().atMost(PATIENCE).ignoreExceptions().untilAsserted(() -> {
                    assertThat(browser.findElement(failingTile).getAttribute("class")).contains("health-healthy");
                    assertThat(browser.findElement(failingTile).getText()).contains("default/high-jax-trillium");
                });
                assertThat(agent.client().post("/simulation/nodepools/" + failing + "/fail", null, "").status())
                        .isEqualTo(204);
                // no reload: the SSE event makes htmx swap the grid in place
                await().atMost(PATIENCE).ignoreExceptions().untilAsserted(() -> assertThat(
                        browser.findElement(failingTile).getAttribute("class")).contains("health-unhealthy"));
                assertThat(browser.getCurrentUrl()).endsWith("/nodepools");
                await().atMost(PATIENCE).ignoreExceptions().untilAsserted(() -> assertThat(
                        browser.findElement(failingTile).findElement(By.cssSelector(".reasons")).getText())
                        .contains("Unhealthy"));
                console.screenshot("nodepools");

                JsonNode event = await().atMost(PATIENCE).until(() -> api.get("/api/v1/hotswaps").json().get("items"),
                        items -> items.size() == 1 && !items.get(0).get("runningAt").isNull()).get(0);
                console.open("/hotswaps");
                By row = By.id("hotswap-" + event.get("id").asLong());
                // the section is live: an SSE event may swap it between two reads, so read it again until it holds
                await().atMost(PATIENCE).ignoreExceptions().untilAsserted(() -> {
                    WebElement r = browser.findElement(row);
                    assertThat(r.getText()).contains("sim/" + failing, "default/high-jax-trillium",
                            "default/low-jax-trillium", "Recovered", "detected", "decided", "evicted", "running");
                    for (String phase : List.of("detectedAt", "decidedAt", "evictionsDoneAt", "runningAt")) {
                        assertThat(r.findElements(By.cssSelector("time[datetime='" + event.get(phase).asString() + "']")))
                                .as(phase).isNotEmpty();
                    }
                    assertThat(r.findElements(By.cssSelector(".phase-bar .phase"))).hasSize(3);
                    assertThat(browser.findElements(By.cssSelector("figure.chart svg circle.dot"))).hasSize(1);
                    assertThat(r.findElement(By.cssSelector("a.victim")).getAttribute("href"))
                            .endsWith("/namespaces/default/workloads/low-jax-trillium");
                });
                console.screenshot("hotswaps");

                await().atMost(PATIENCE).ignoreExceptions()
                        .untilAsserted(() -> browser.findElement(row).findElement(By.cssSelector("a.victim")).click());
                await().atMost(PATIENCE).ignoreExceptions().untilAsserted(() -> assertThat(
                        browser.findElement(By.tagName("h1")).getText()).contains("low-jax-trillium"));
                assertThat(browser.findElement(By.cssSelector("section[aria-labelledby='preempted'] tbody")).getText())
                        .contains("Hotswap", "google.com/tpu", "chip-hours", "since");
                assertThat(browser.findElement(By.cssSelector("ol.timeline")).getText()).contains("LostWork=True");
                console.screenshot("workload-detail");

                // The disrupted workload restarted on new pools keeps its admission, and its queue's minimum runtime.
                console.open("/namespaces/default/workloads/high-jax-trillium");
                await().atMost(PATIENCE).ignoreExceptions().untilAsserted(() -> assertThat(
                        browser.findElement(By.cssSelector("dd.protection")).getText())
                        .startsWith("protected from preemption until"));
                console.screenshot("workload-protected");

                console.open("/preemptions");
                new Select(browser.findElement(By.name("reason"))).selectByVisibleText("Hotswap");
                browser.findElement(By.cssSelector("form.filters button[type=submit]")).click();
                // the click starts a navigation; the filtered page is there once the address says so
                await().atMost(PATIENCE).untilAsserted(() -> assertThat(browser.getCurrentUrl()).contains("reason=Hotswap"));
                WebElement audit = browser.findElement(By.cssSelector("table.preemptions tbody"));
                assertThat(audit.findElements(By.tagName("tr"))).hasSize(1);
                assertThat(audit.getText()).contains("Hotswap", "default/low-jax-trillium", "default/high-jax-trillium",
                        "google.com/tpu", "chip-hours", "since");
                String csvHref = browser.findElement(By.cssSelector("a.download")).getAttribute("href");
                assertThat(csvHref).contains("reason=Hotswap").contains("format=csv");
                console.screenshot("preemptions");
                PlatformClient.Response csv = api.get(csvHref.substring(scheduler.url().length()), "text/csv");
                assertThat(csv.status()).isEqualTo(200);
                List<String> lines = csv.body().lines().toList();
                assertThat(lines).hasSize(2);
                assertThat(lines.get(1)).contains("Hotswap", "low-jax-trillium", "high-jax-trillium");

                console.open("/teams");
                await().atMost(PATIENCE).ignoreExceptions().untilAsserted(() -> assertThat(browser.findElement(
                        By.cssSelector("section[aria-labelledby='team-lost-work'] table.lost-work")).getText())
                        .contains("google.com/tpu", "chip-hours"));
                console.screenshot("teams");
                console.open("/configuration");
                console.screenshot("configuration");

                console.open("/");
                await().atMost(PATIENCE).ignoreExceptions().untilAsserted(() -> assertThat(browser.findElement(
                        By.cssSelector("section[aria-labelledby='latest-hotswaps']")).getText())
                        .contains("sim/" + failing, "Recovered"));
                console.screenshot("overview");

                // A form that lost its CSRF token (as a forged one would lack it) is refused; the workload stays.
                console.open("/namespaces/default/workloads/queued-jax-trillium");
                ((JavascriptExecutor) browser).executeScript(
                        "document.querySelector('form.cancel input[name=_csrf]').remove()");
                browser.findElement(By.cssSelector("form.cancel button[type=submit]")).click();
                await().atMost(PATIENCE).ignoreExceptions().untilAsserted(() -> assertThat(
                        browser.findElement(By.tagName("h1")).getText()).isEqualTo("The form has expired"));
                console.screenshot("form-without-csrf-token");
                assertThat(api.get("/api/v1/namespaces/default/workloads/queued-jax-trillium").json()
                        .get("state").asString()).isNotEqualTo("Finished");

                console.logOut();
                console.logIn("alice", PASSWORD);
                assertThat(browser.findElement(By.cssSelector(".who-roles")).getText()).isEqualTo("ml");
                assertThat(browser.findElements(By.linkText("Node pools"))).isEmpty();
                assertThat(browser.findElements(By.linkText("Hotswaps"))).as("her team's hotswaps").hasSize(1);
                console.screenshot("overview-team-lead");
                console.open("/teams");
                assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Team quota");
                console.screenshot("teams-team-lead");
                assertThat(browser.findElement(By.cssSelector("section[aria-labelledby='local-queues']")).getText())
                        .contains("default/default-queue", "None");
                assertThat(browser.findElements(By.cssSelector(".lq-controls"))).as("a lead has no LocalQueue buttons")
                        .isEmpty();
                console.open("/nodepools");
                assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Not for your roles");

                // An Admin stops the team's LocalQueue from the team page and resumes it.
                console.logOut();
                console.logIn("root", PASSWORD);
                console.open("/teams?team=ml");
                By stop = By.cssSelector("button[aria-label='Stop LocalQueue default/default-queue']");
                assertThat(browser.findElement(stop).isDisplayed()).isTrue();
                console.screenshot("teams-admin-localqueue-buttons");
                browser.findElement(stop).click();
                await().atMost(PATIENCE).ignoreExceptions().untilAsserted(() -> assertThat(
                        browser.findElement(By.cssSelector(".notice")).getText())
                        .startsWith("Stopped LocalQueue default/default-queue"));
                assertThat(api.get("/api/v1/namespaces/default/localqueues/default-queue").json().get("stopPolicy")
                        .asString()).isEqualTo("Hold");
                console.screenshot("teams-admin-localqueue-held");
                browser.findElement(By.cssSelector("button[aria-label='Resume LocalQueue default/default-queue']")).click();
                // the previous page's notice is there until the browser has followed the redirect
                await().atMost(PATIENCE).ignoreExceptions().untilAsserted(() -> assertThat(
                        browser.findElement(By.cssSelector(".notice")).getText()).startsWith("Resumed LocalQueue"));
                assertThat(api.get("/api/v1/namespaces/default/localqueues/default-queue").json().get("stopPolicy")
                        .asString()).isEqualTo("None");
            }
        }
    }

    /** The seed's queues through the manifests endpoint; its JobSets, and one more, as submitted workloads. */
    private static void submitSeed(PlatformClient api) {
        String seed = SeedManifests.read("seed-kueue-and-hotswap.yaml").replace("nominalQuota: 32", "nominalQuota: 64")
                .replace("  name: tpu-training-cq\nspec:",
                        "  name: tpu-training-cq\n  annotations: {platform.dev/minimum-runtime: 2h}\nspec:");
        List<String> documents = Arrays.stream(seed.split("(?m)^---\\s*$")).filter(d -> !d.isBlank()).toList();
        String config = String.join("---\n", documents.stream().filter(d -> !d.contains("kind: JobSet")).toList());
        assertThat(api.postYaml("/api/v1/manifests", config).status()).isEqualTo(200);
        List<String> jobSets = documents.stream().filter(d -> d.contains("kind: JobSet")).toList();
        for (String jobSet : jobSets) {
            assertThat(api.postYaml("/api/v1/namespaces/default/workloads", jobSet).status()).isEqualTo(201);
        }
        awaitWorkload(api, "low-jax-trillium", w -> "Running".equals(w.get("state").asString()));
        String queued = jobSets.stream().filter(d -> d.contains("name: low-jax-trillium")).findFirst().orElseThrow()
                .replace("name: low-jax-trillium", "name: queued-jax-trillium");
        assertThat(api.postYaml("/api/v1/namespaces/default/workloads", queued).status()).isEqualTo(201);
    }

    /**
     * An operator (Ops), an Admin, a lead of team ml owning namespace default, and a user whose password is guessed
     * at.
     */
    private static void createUsers(PlatformClient api) {
        for (String user : List.of("{\"name\": \"operator\", \"clusterRole\": \"Ops\"",
                "{\"name\": \"root\", \"clusterRole\": \"Admin\"", "{\"name\": \"alice\"",
                "{\"name\": \"guessed\"")) {
            assertThat(api.postJson("/api/v1/users", user + ", \"password\": \"" + PASSWORD + "\"}").status())
                    .isEqualTo(201);
        }
        assertThat(api.postYaml("/api/v1/manifests", """
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: ml}
                spec: {namespaces: [default], members: [{user: alice, role: TeamLead}]}
                """).status()).isEqualTo(200);
    }

    private static long healthyPools(PlatformClient api) {
        JsonNode pools = api.get("/api/v1/clusters/sim/nodepools").json();
        JsonNode items = pools.has("items") ? pools.get("items") : pools;
        return items.valueStream().filter(p -> "Healthy".equals(p.get("health").asString())).count();
    }

    private static JsonNode awaitWorkload(PlatformClient api, String name, java.util.function.Predicate<JsonNode> until) {
        return await().atMost(PATIENCE).until(
                () -> api.get("/api/v1/namespaces/default/workloads/" + name).json(), until);
    }
}
