package dev.platform.web;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The console module has no application class of its own; this one boots the @WebMvcTest slices. */
@SpringBootApplication
public class ConsoleTestApplication {
}
