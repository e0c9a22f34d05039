package dev.platform.scheduler.core.forecast;

import java.time.Instant;
import java.util.List;

/** The forecast's source of future submissions. */
@FunctionalInterface
public interface ArrivalModel {

    /** Expects nothing: every forecast is "if nothing new arrives". */
    ArrivalModel NONE = now -> List.of();

    /** The arrival processes known at {@code now}, one per LocalQueue and priority class with enough history. */
    List<ArrivalProcess> processes(Instant now);
}
