package dev.platform.api.manifest.decode;

import java.util.Collection;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;

/**
 * The known name a misspelt one most likely meant, by the fewest single-character edits (insert, delete,
 * replace; letter case aside): for a field, a suggestion only when it is at most two edits away and fewer
 * than half its length, so that a short or unrelated name gets none ({@link #among}); for a name the
 * caller must pick from anyway, the nearest of all ({@link #nearest}).
 */
public final class NearestName {

    private static final int MAX_EDITS = 2;

    private NearestName() {
    }

    /** The nearest known name if it is near enough to suggest; among equally near ones the first. */
    public static Optional<String> among(String name, Collection<String> known) {
        String best = null;
        int bestEdits = Integer.MAX_VALUE;
        for (String candidate : known) {
            int edits = edits(name, candidate);
            if (edits < bestEdits) {
                best = candidate;
                bestEdits = edits;
            }
        }
        boolean near = bestEdits <= MAX_EDITS && bestEdits * 2 < name.length();
        return near ? Optional.of(best) : Optional.empty();
    }

    /** The nearest candidate however far, ties broken by name; empty when there is none. */
    public static Optional<String> nearest(String name, Collection<String> candidates) {
        return candidates.stream()
                .min(Comparator.comparingInt((String c) -> edits(name, c)).thenComparing(Comparator.naturalOrder()));
    }

    /** Levenshtein distance ignoring case, where names differing only in case are one edit apart. */
    public static int edits(String a, String b) {
        if (a.equals(b)) {
            return 0;
        }
        String x = a.toLowerCase(Locale.ROOT);
        String y = b.toLowerCase(Locale.ROOT);
        int[] previous = new int[y.length() + 1];
        int[] current = new int[y.length() + 1];
        for (int j = 0; j <= y.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= x.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= y.length(); j++) {
                int replace = previous[j - 1] + (x.charAt(i - 1) == y.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(replace, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return Math.max(previous[y.length()], 1);
    }
}
