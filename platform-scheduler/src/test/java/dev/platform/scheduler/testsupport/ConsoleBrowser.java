package dev.platform.scheduler.testsupport;

import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The console in headless Debian Chromium, for process tests: the pages opened, logins as a person types them, and a
 * screenshot of each page's whole height under target/screenshots. Needs Debian's {@code chromium} and
 * {@code chromium-driver} ({@code .ci/run} installs them); Selenium Manager is never asked to download a driver: both
 * paths are given.
 */
public record ConsoleBrowser(WebDriver browser, String baseUrl) implements AutoCloseable {

    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    /** Whether this machine has the browser; a test without it is reported as skipped, not passed. */
    public static boolean installed() {
        return Files.isExecutable(CHROMEDRIVER) && Files.isExecutable(CHROMIUM);
    }

    /** A new headless Chromium with a profile of its own, on the console at {@code baseUrl}. */
    public static ConsoleBrowser start(String baseUrl) throws IOException {
        assertThat(CHROMEDRIVER).as("chromium-driver is installed (.ci/run installs it)").isExecutable();
        Files.createDirectories(SCREENSHOTS);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-quic", "--no-first-run", "--disable-component-update",
                "--disable-sync", "--window-size=1400,1000",
                "--user-data-dir=" + Files.createTempDirectory("console-browser-it-profile"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        WebDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().implicitlyWait(Duration.ofSeconds(5));
        return new ConsoleBrowser(driver, baseUrl);
    }

    public void open(String path) {
        browser.get(baseUrl + path);
    }

    /** The login form, filled in and sent as a person would; the answer may be a refusal. */
    public void submitLogin(String user, String password) {
        open("/login");
        browser.findElement(By.id("username")).sendKeys(user);
        browser.findElement(By.id("password")).sendKeys(password);
        browser.findElement(By.cssSelector("form.login-form button[type=submit]")).click();
    }

    /**
     * A login that succeeds, returning once the console greets the user: the next page opened
     * straight after the click could otherwise overtake the login's own navigation and land on
     * the login form again.
     */
    public void logIn(String user, String password) {
        submitLogin(user, password);
        await().atMost(PATIENCE).ignoreExceptions().untilAsserted(() -> assertThat(
                browser.findElement(By.cssSelector(".who-name")).getText()).isEqualTo(user));
    }

    /**
     * The logout button, returning once the browser is on the logged-out login page: a click only
     * starts the navigation, and a page opened or read before it ends would still be the old one.
     */
    public void logOut() {
        open("/");
        browser.findElement(By.cssSelector("form.logout button")).click();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(browser.getCurrentUrl()).endsWith("/login?logout"));
    }

    /** The whole page, beyond the window's height (DevTools' captureBeyondViewport). */
    public void screenshot(String page) throws IOException {
        long height = (Long) ((JavascriptExecutor) browser).executeScript(
                "return Math.max(document.body.scrollHeight, document.documentElement.scrollHeight)");
        long width = (Long) ((JavascriptExecutor) browser).executeScript(
                "return document.documentElement.clientWidth");
        Map<String, Object> shot = ((ChromeDriver) browser).executeCdpCommand("Page.captureScreenshot", Map.of(
                "format", "png", "captureBeyondViewport", true,
                "clip", Map.of("x", 0, "y", 0, "width", width, "height", height, "scale", 1)));
        Files.write(SCREENSHOTS.resolve(page + ".png"), Base64.getDecoder().decode((String) shot.get("data")));
    }

    @Override
    public void close() {
        browser.quit();
    }
}
