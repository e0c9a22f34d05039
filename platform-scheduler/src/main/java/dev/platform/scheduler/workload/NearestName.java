package dev.platform.scheduler.workload;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/** The name a misspelt one most likely meant: the fewest single-character edits (Levenshtein), then the first. */
final class NearestName {

    private NearestName() {
    }

    /** The candidate nearest to {@code name}, ties broken by name; empty when there is none. */
    static Optional<String> of(String name, Collection<String> candidates) {
        return candidates.stream()
                .min(Comparator.comparingInt((String c) -> distance(name, c)).thenComparing(Comparator.naturalOrder()));
    }

    /** Insertions, deletions and substitutions that turn {@code a} into {@code b}. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
