package dev.platform.api.identity;

/** A role over the whole platform, set on the user rather than through a team. */
public enum ClusterRole {
    /** Reads everything (audits, hotswaps, node pools, clusters) and cancels any workload. */
    Ops,
    /** Everything, including configuration, teams, users and tokens. */
    Admin;

    /** How a user comes to hold this role, for a refusal to say whom to ask. */
    public String howToBecome() {
        String granted = "An Admin gives a user the " + name() + " role (POST /api/v1/users with \"clusterRole\": \""
                + name() + "\", or an identity provider group mapped to " + name() + ").";
        return this == Admin ? granted + " The demo's start-up banner lists an Admin login (user admin)." : granted;
    }
}
