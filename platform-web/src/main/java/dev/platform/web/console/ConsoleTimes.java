package dev.platform.web.console;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

import java.time.Clock;

/**
 * Gives every console page {@code times}, a {@link RelativeTime} at the moment of the request, so that every
 * time on a page reads relative to the same now. The application's clock when it has one, else the system's.
 */
@ControllerAdvice(basePackages = "dev.platform.web")
public class ConsoleTimes {

    private final Clock clock;

    public ConsoleTimes(ObjectProvider<Clock> clock) {
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    @ModelAttribute("times")
    public RelativeTime times() {
        return new RelativeTime(clock.instant());
    }
}
