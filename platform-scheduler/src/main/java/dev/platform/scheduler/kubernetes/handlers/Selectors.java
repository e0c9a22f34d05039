package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.scheduler.kubernetes.registry.ObjectStore.Selector;
import dev.platform.scheduler.kubernetes.registry.Objects;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * {@code labelSelector} and {@code fieldSelector} as kube-apiserver reads them: {@code a=b}, {@code a==b},
 * {@code a!=b}, {@code a in (x,y)}, {@code a notin (x)}, {@code a}, {@code !a}, joined by commas; fields by equality
 * only, at the paths each kind supports.
 */
final class Selectors {

    private static final Pattern SET = Pattern.compile("^\\s*(!?)([^\\s!=,()]+)\\s*(?:(in|notin)\\s*\\(([^)]*)\\))?\\s*$");
    private static final Pattern EQUALITY = Pattern.compile("^\\s*([^\\s!=]+)\\s*(==|=|!=)\\s*([^\\s]*)\\s*$");

    private Selectors() {
    }

    static Selector of(String labelSelector, String fieldSelector, List<String> fields) {
        Predicate<Map<String, Object>> labels = labels(labelSelector);
        Predicate<Map<String, Object>> byFields = fields(fieldSelector, fields);
        if (labelSelector == null && fieldSelector == null) {
            return Selector.EVERYTHING;
        }
        return object -> labels.test(object) && byFields.test(object);
    }

    private static Predicate<Map<String, Object>> labels(String selector) {
        if (selector == null || selector.isBlank()) {
            return object -> true;
        }
        List<Predicate<Map<String, String>>> requirements = new ArrayList<>();
        for (String term : split(selector)) {
            Matcher equality = EQUALITY.matcher(term);
            Matcher set = SET.matcher(term);
            if (equality.matches()) {
                String key = equality.group(1);
                String value = equality.group(3);
                boolean equal = !equality.group(2).equals("!=");
                requirements.add(labels -> equal ? value.equals(labels.get(key)) : !value.equals(labels.get(key)));
            } else if (set.matches()) {
                boolean not = !set.group(1).isEmpty();
                String key = set.group(2);
                if (set.group(3) == null) {
                    requirements.add(labels -> not != labels.containsKey(key));
                } else {
                    Set<String> values = Arrays.stream(set.group(4).split(",")).map(String::strip)
                            .collect(Collectors.toSet());
                    boolean in = set.group(3).equals("in");
                    requirements.add(labels -> in ? values.contains(labels.get(key))
                            : !values.contains(labels.get(key)));
                }
            } else {
                throw StatusError.badRequest("unable to parse requirement: found '" + term.strip()
                        + "', expected: in, notin, =, ==, !=, gt, lt");
            }
        }
        return object -> {
            @SuppressWarnings("unchecked")
            Map<String, String> labels = (Map<String, String>) (Map<?, ?>) Objects.map(Objects.metadata(object),
                    "labels");
            return requirements.stream().allMatch(r -> r.test(labels));
        };
    }

    private static Predicate<Map<String, Object>> fields(String selector, List<String> supported) {
        if (selector == null || selector.isBlank()) {
            return object -> true;
        }
        List<Predicate<Map<String, Object>>> requirements = new ArrayList<>();
        for (String term : split(selector)) {
            Matcher equality = EQUALITY.matcher(term);
            if (!equality.matches()) {
                throw StatusError.badRequest("invalid selector: '" + selector + "'; can't understand '" + term + "'");
            }
            String field = equality.group(1);
            if (!supported.contains(field)) {
                throw StatusError.badRequest("field label not supported: " + field);
            }
            String value = equality.group(3);
            boolean equal = !equality.group(2).equals("!=");
            requirements.add(object -> equal == value.equals(valueAt(object, field)));
        }
        return object -> requirements.stream().allMatch(r -> r.test(object));
    }

    /** The equalities ({@code a=b}, {@code a==b}) of a field selector, by field. */
    static Map<String, String> equalities(String selector) {
        Map<String, String> equal = new java.util.LinkedHashMap<>();
        if (selector == null || selector.isBlank()) {
            return equal;
        }
        for (String term : split(selector)) {
            Matcher m = EQUALITY.matcher(term);
            if (m.matches() && !m.group(2).equals("!=")) {
                equal.put(m.group(1), m.group(3));
            }
        }
        return equal;
    }

    /** The value at a dotted path, as text ("" when absent, as kube-apiserver compares absent fields). */
    static String valueAt(Map<String, Object> object, String path) {
        Object current = object;
        for (String part : path.split("\\.")) {
            if (!(current instanceof Map<?, ?> map)) {
                return "";
            }
            current = map.get(part);
        }
        return current == null ? "" : String.valueOf(current);
    }

    /** Terms split at commas outside parentheses. */
    private static List<String> split(String selector) {
        List<String> terms = new ArrayList<>();
        int depth = 0;
        StringBuilder current = new StringBuilder();
        for (char c : selector.toCharArray()) {
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            }
            if (c == ',' && depth == 0) {
                terms.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        if (!current.isEmpty()) {
            terms.add(current.toString());
        }
        return terms;
    }
}
