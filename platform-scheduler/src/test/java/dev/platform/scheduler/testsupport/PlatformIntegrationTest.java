package dev.platform.scheduler.testsupport;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ContextConfiguration;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The whole application on a random port against the shared real PostgreSQL, with the test
 * credentials ({@link TestIdentity}). Every test using it shares one Spring context (same
 * configuration), so the suite starts the application once. Its HTTPS connector takes a free port too
 * ({@code local.platform.tls.port}), so that test runs side by side never contend for 8443.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "platform.tls.port=0")
@ContextConfiguration(initializers = {TestDatabase.Initializer.class, TestIdentity.Initializer.class})
public @interface PlatformIntegrationTest {
}
