package dev.platform.scheduler.web;

import org.springframework.http.HttpHeaders;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The warnings of an answer as HTTP {@code Warning} headers, one each, in the form the Kubernetes API
 * server sends and kubectl prints ({@code 299 - "unknown field \"spec.foo\""}, RFC 7234's warn-code 299,
 * no agent). The answer's JSON carries every warning; the headers stop at {@link #MAX_TEXT} characters
 * of warning text, as the API server bounds them, and then say how many were left out.
 */
public final class WarningHeaders {

    /** Obsoleted in HTTP caching (RFC 9111), kept by Kubernetes for warnings to its clients. */
    static final String WARNING = "Warning";
    /** Miscellaneous persistent warning. */
    static final int WARN_CODE = 299;
    static final int MAX_TEXT = 4096;

    private WarningHeaders() {
    }

    /** The headers for {@code warnings}, each text once, in order. */
    public static HttpHeaders of(List<String> warnings) {
        HttpHeaders headers = new HttpHeaders();
        Set<String> distinct = new LinkedHashSet<>(warnings);
        int written = 0;
        int left = distinct.size();
        for (String text : distinct) {
            if (written + text.length() > MAX_TEXT) {
                headers.add(WARNING, value(left + " more warning(s) are in the answer's warnings"));
                break;
            }
            headers.add(WARNING, value(text));
            written += text.length();
            left--;
        }
        return headers;
    }

    /**
     * A quoted-string: quotes and backslashes escaped; a character a header cannot carry (a control
     * character, or beyond ASCII) is a {@code ?}, the answer's JSON having the text as written.
     */
    private static String value(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 10).append(WARN_CODE).append(" - \"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                quoted.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                quoted.append('?');
            } else {
                quoted.append(c);
            }
        }
        return quoted.append('"').toString();
    }
}
