package dev.platform.scheduler.core.forecast;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;

/**
 * Expected submissions per hour, constant or by UTC hour of the day or of the week, piecewise constant within
 * each hour.
 */
public record ArrivalRate(Profile profile, double[] perHour) {

    /** How the rate varies with time. */
    public enum Profile {
        /** One rate at all times (the history is shorter than {@link ArrivalHistory#DAILY_SPAN}). */
        Overall(1),
        /** A rate per UTC hour of the day. */
        HourOfDay(24),
        /** A rate per UTC hour of the week, Monday 00:00 first. */
        HourOfWeek(168);

        private final int buckets;

        Profile(int buckets) {
            this.buckets = buckets;
        }

        public int buckets() {
            return buckets;
        }

        int bucket(Instant at) {
            if (this == Overall) {
                return 0;
            }
            ZonedDateTime utc = at.atZone(ZoneOffset.UTC);
            int hour = utc.getHour();
            return this == HourOfDay ? hour : (utc.getDayOfWeek().getValue() - DayOfWeek.MONDAY.getValue()) * 24 + hour;
        }
    }

    public ArrivalRate {
        if (perHour.length != profile.buckets()) {
            throw new IllegalArgumentException(profile + " needs " + profile.buckets() + " rates");
        }
        perHour = perHour.clone();
    }

    /** Expected submissions per hour at {@code at}. */
    public double perHour(Instant at) {
        return perHour[profile.bucket(at)];
    }

    /** When the rate may next change after {@code at}: the next whole UTC hour, or null when it never does. */
    public Instant nextChange(Instant at) {
        return profile == Profile.Overall ? null : at.truncatedTo(ChronoUnit.HOURS).plus(1, ChronoUnit.HOURS);
    }
}
