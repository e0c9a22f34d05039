package dev.platform.api.identity;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The grammar of user names: what people and identity providers use as a login (letters, digits,
 * {@code . _ @ -}, so an e-mail address is one), at most 253 characters, starting with a letter or digit.
 */
public final class UserNames {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,252}");

    private UserNames() {
    }

    /** What is wrong with {@code name}, or empty when it is a valid user name. */
    public static Optional<String> problem(String name) {
        if (name == null || name.isEmpty()) {
            return Optional.of("a user name must not be empty");
        }
        if (!NAME.matcher(name).matches()) {
            return Optional.of("'" + (name.length() > 64 ? name.substring(0, 64) + "..." : name)
                    + "' is not a user name: up to 253 letters, digits, '.', '_', '@' or '-', starting with a"
                    + " letter or digit");
        }
        return Optional.empty();
    }
}
