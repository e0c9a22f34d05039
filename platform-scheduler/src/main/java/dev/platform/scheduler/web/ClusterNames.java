package dev.platform.scheduler.web;

import dev.platform.scheduler.refusal.Refusal;

import java.util.List;
import java.util.regex.Pattern;

/** A cluster is named like a Kubernetes object (DNS-1123 subdomain), as the schema requires. */
public final class ClusterNames {

    private static final Pattern NAME =
            Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");

    private ClusterNames() {
    }

    public static void require(String cluster) {
        if (cluster.length() > 253 || !NAME.matcher(cluster).matches()) {
            throw new Refusal(Refusal.Kind.Malformed, "Bad Request", "\"" + cluster
                    + "\" is not a valid cluster name: lower-case letters, digits, '-' and '.', at most 253",
                    List.of());
        }
    }
}
