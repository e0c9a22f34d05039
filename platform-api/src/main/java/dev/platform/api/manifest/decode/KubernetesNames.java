package dev.platform.api.manifest.decode;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The name grammars of Kubernetes (apimachinery's {@code validation.IsDNS1123Subdomain},
 * {@code IsDNS1123Label}, {@code IsQualifiedName}, {@code IsValidLabelValue}); each check returns
 * what is wrong, in the API server's words, or empty.
 */
public final class KubernetesNames {

    private static final String LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final Pattern DNS_LABEL = Pattern.compile(LABEL);
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile(LABEL + "(\\." + LABEL + ")*");
    private static final Pattern QUALIFIED_NAME_PART = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");

    private KubernetesNames() {
    }

    /** Object names of most kinds, and references to them. */
    public static Optional<String> subdomainProblem(String name) {
        if (name.length() > 253) {
            return Optional.of("'" + abbreviate(name) + "' is longer than 253 characters");
        }
        if (!DNS_SUBDOMAIN.matcher(name).matches()) {
            return Optional.of("'" + name + "' is not a lowercase RFC 1123 subdomain: lowercase letters, digits, '-'"
                    + " and '.', starting and ending with a letter or digit (e.g. 'example.com')");
        }
        return Optional.empty();
    }

    /** Namespaces. */
    public static Optional<String> labelProblem(String name) {
        if (name.length() > 63) {
            return Optional.of("'" + abbreviate(name) + "' is longer than 63 characters");
        }
        if (!DNS_LABEL.matcher(name).matches()) {
            return Optional.of("'" + name + "' is not a lowercase RFC 1123 label: lowercase letters, digits and '-',"
                    + " starting and ending with a letter or digit (e.g. 'my-name')");
        }
        return Optional.empty();
    }

    /** Label keys and resource names: an optional DNS subdomain prefix and '/', then a name of up to 63 characters. */
    static Optional<String> qualifiedNameProblem(String name) {
        int slash = name.indexOf('/');
        String local = slash < 0 ? name : name.substring(slash + 1);
        if (slash >= 0) {
            String prefix = name.substring(0, slash);
            if (prefix.isEmpty()) {
                return Optional.of("'" + name + "': the prefix before '/' must not be empty");
            }
            Optional<String> prefixProblem = subdomainProblem(prefix);
            if (prefixProblem.isPresent()) {
                return Optional.of("'" + name + "': prefix " + prefixProblem.get());
            }
        }
        if (local.isEmpty() || local.length() > 63 || !QUALIFIED_NAME_PART.matcher(local).matches()) {
            return Optional.of("'" + abbreviate(name) + "' is not a qualified name: an optional DNS subdomain prefix"
                    + " and '/', then up to 63 letters, digits, '-', '_' or '.', starting and ending with a letter"
                    + " or digit (e.g. 'cpu', 'google.com/tpu')");
        }
        return Optional.empty();
    }

    static Optional<String> labelValueProblem(String value) {
        if (value.isEmpty()) {
            return Optional.empty();
        }
        if (value.length() > 63 || !QUALIFIED_NAME_PART.matcher(value).matches()) {
            return Optional.of("'" + abbreviate(value) + "' is not a valid label value: up to 63 letters, digits,"
                    + " '-', '_' or '.', starting and ending with a letter or digit");
        }
        return Optional.empty();
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
