package dev.platform.web;

import dev.platform.web.console.ConsoleFixtures;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import java.time.Clock;
import java.time.ZoneOffset;

/**
 * The console module has no application class of its own; this one boots the @WebMvcTest slices, with the clock
 * standing at {@link ConsoleFixtures#NOW} so that relative times read the same in every run.
 */
@SpringBootApplication
public class ConsoleTestApplication {

    @Bean
    Clock clock() {
        return Clock.fixed(ConsoleFixtures.NOW, ZoneOffset.UTC);
    }
}
