package dev.platform.web;

import dev.platform.web.console.ConsoleFixtures;
import dev.platform.web.console.CurrentCaller;
import dev.platform.web.login.LoginOptions;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/**
 * The console module has no application class of its own; this one boots the @WebMvcTest slices, with
 * an Admin as every request's caller unless a test replaces {@link CurrentCaller} with a mock, and with the
 * clock standing at {@link ConsoleFixtures#NOW} so that relative times read the same in every run.
 */
@SpringBootApplication
public class ConsoleTestApplication {

    @Bean
    CurrentCaller currentCaller() {
        return () -> Optional.of(ConsoleFixtures.ADMIN);
    }

    @Bean
    LoginOptions loginOptions() {
        return List::of;
    }

    @Bean
    Clock clock() {
        return Clock.fixed(ConsoleFixtures.NOW, ZoneOffset.UTC);
    }
}
