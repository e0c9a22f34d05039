package dev.platform.scheduler.testsupport;

import org.springframework.test.context.TestPropertySource;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The application with admission fair sharing on (half-life 1h, sampling every 5m, {@code google.com/tpu} weighing
 * 8), the settings the {@code afs} scenario files name. One more context of the suite, shared by every test that
 * carries this annotation, with a database of its own on the same server (two scheduling loops on one database would
 * compete for leadership).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@PlatformIntegrationTest
@TestPropertySource(properties = {
        "platform.scheduler.admission-fair-sharing.usage-half-life-time=1h",
        "platform.scheduler.admission-fair-sharing.usage-sampling-interval=5m",
        "platform.scheduler.admission-fair-sharing.resource-weights[google.com/tpu]=8",
        TestDatabase.DATABASE_PROPERTY + "=admission_fair_sharing"})
public @interface AdmissionFairSharingContext {
}
