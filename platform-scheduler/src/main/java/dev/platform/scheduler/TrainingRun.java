package dev.platform.scheduler;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * With {@code platform.exit-when-ready=true} the scheduler starts, and once ready closes and exits: the build's
 * training run, which records the classes a start loads into a class data sharing archive
 * ({@code -XX:ArchiveClassesAtExit}) that later starts map instead of loading and verifying each class again
 * (docs/operations.md). Closing the context, rather than halting at refresh, stops the embedded PostgreSQL the run
 * started.
 */
@Component
@ConditionalOnBooleanProperty("platform.exit-when-ready")
class TrainingRun implements ApplicationListener<ApplicationReadyEvent> {

    private static final Logger log = LoggerFactory.getLogger(TrainingRun.class);

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        log.info("platform.exit-when-ready: started; closing and exiting");
        System.exit(SpringApplication.exit(event.getApplicationContext()));
    }
}
