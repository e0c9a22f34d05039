package dev.platform.scheduler.core.model;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The admission checks of a ClusterQueue: Kueue's {@code spec.admissionChecks} (each a rule for every flavor) or
 * {@code spec.admissionChecksStrategy.admissionChecks} (each rule naming the flavors it applies to; none: every
 * flavor). A workload admitted there gets the checks whose flavors meet the flavors of its admission (Kueue's
 * admissionChecksForAdmission).
 */
public record AdmissionCheckStrategy(List<Rule> rules) {

    /** A ClusterQueue without admission checks: its admissions are final at once. */
    public static final AdmissionCheckStrategy NONE = new AdmissionCheckStrategy(List.of());

    /** One check; {@code onFlavors} empty applies it whatever the flavors. */
    public record Rule(String name, Set<String> onFlavors) {
        public Rule {
            onFlavors = Set.copyOf(onFlavors);
        }
    }

    public AdmissionCheckStrategy {
        rules = List.copyOf(rules);
    }

    /** Checks that apply to every flavor (Kueue's {@code spec.admissionChecks}). */
    public static AdmissionCheckStrategy of(List<String> names) {
        return names.isEmpty() ? NONE
                : new AdmissionCheckStrategy(names.stream().map(n -> new Rule(n, Set.of())).toList());
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /** The names of the checks {@code admission} must pass, in name order. */
    public List<String> checksFor(Admission admission) {
        if (rules.isEmpty()) {
            return List.of();
        }
        Set<String> flavors = new TreeSet<>();
        admission.podSetAssignments().forEach(ps -> flavors.addAll(ps.flavors().values()));
        Set<String> names = new TreeSet<>();
        for (Rule r : rules) {
            if (r.onFlavors().isEmpty() || r.onFlavors().stream().anyMatch(flavors::contains)) {
                names.add(r.name());
            }
        }
        return List.copyOf(names);
    }

    /** Every check named, in name order. */
    public List<String> names() {
        return rules.stream().map(Rule::name).sorted().distinct().toList();
    }
}
